/** Idea markers, and the constant cost of filtered pages whatever the size of the site. */
import { describe, expect, it } from 'vitest';
import { createSite, createUser } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { allPages, api, ideaText, ids } from './helpers.ts';
import { distanceMeters } from '#lib/discovery/geo';
import type { InvokeResult } from '#tests/support/invoke';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import type { MarkerRecord } from '#schemas/discovery';

const CENTRE = { lat: 52.37, lng: 4.89 };

describe('idea markers', () => {
  it('lists {id, title, status, location, tags} of the ideas with a location, with the same filters', async () => {
    const site = await createSite();
    const moderator = (await createUser(site.id, 'moderator')).token;
    const tag = (await api.createTag(site.id, moderator, { name: 'bank' })).body.id;
    const a = (await api.createIdea(site.id, moderator, { ...ideaText('Bankje bij de vijver'), tags: [tag], location: CENTRE })).body;
    const b = (await api.createIdea(site.id, moderator, { ...ideaText('Lantaarn in het park'), location: { lat: 52.38, lng: 4.9 }, status: 'DONE' })).body;
    await api.createIdea(site.id, moderator, { ...ideaText('Bankje zonder plek'), tags: [tag] });

    const res = await api.markers(site.id);
    expect(res.status).toBe(200);
    expect(res.body.records).toEqual([
      { id: b.id, title: b.title, status: 'DONE', location: { lat: 52.38, lng: 4.9 }, tags: [] },
      { id: a.id, title: a.title, status: 'OPEN', location: CENTRE, tags: [tag] },
    ]);
    expect(res.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
    expect(ids((await api.markers(site.id, { tags: String(tag) })).body.records)).toEqual([a.id]);
    expect(ids((await api.markers(site.id, { search: 'bankje' })).body.records)).toEqual([a.id]);
    expect(ids((await api.markers(site.id, { status: 'DONE' })).body.records)).toEqual([b.id]);
    expect(ids((await api.markers(site.id, { selectRunning: '1' })).body.records)).toEqual([a.id]);
    expect(ids((await api.markers(site.id, { near: '52.38,4.9', radius: '5000', sort: 'distance' })).body.records)).toEqual([b.id, a.id]);
    expect(ids(await allPages((q) => api.markers(site.id, q), { pageSize: '1', sort: 'createdate_asc' }))).toEqual([a.id, b.id]);
    expect((await api.markers(site.id, { pageSize: '500' })).status).toBe(200);
    for (const query of [{ pageSize: '501' }, { sort: 'distance' }, { bbox: 'x' }, { includeVoteCount: 'maybe' }]) {
      expect((await api.markers(site.id, query)).status, JSON.stringify(query)).toBe(query.includeVoteCount ? 200 : 400);
    }
  });
});

/** A site of `count` ideas spread over a few km, every third one tagged, all with "speeltuin" in every fifth. */
async function site(count: number) {
  // Counts public: the order by votes is everyone's here.
  const s = await createSite({ votes: { isViewable: true } });
  const moderator = (await createUser(s.id, 'moderator')).token;
  const tag = (await api.createTag(s.id, moderator, { name: 'groen' })).body.id;
  for (let i = 0; i < count; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) => {
        const n = i + j;
        return api.createIdea(s.id, moderator, {
          ...ideaText(`Idee ${n} ${n % 5 === 0 ? 'speeltuin' : 'bankje'}`),
          tags: n % 3 === 0 ? [tag] : [],
          location: { lat: CENTRE.lat + (n % 10) * 0.002, lng: CENTRE.lng + Math.floor(n / 10) * 0.002 },
        });
      }),
    );
  }
  return { siteId: s.id, tag };
}

describe('request counts of filtered pages', () => {
  it('are the same on a site of 12 ideas and one of 90', async () => {
    const small = await site(12);
    const large = await site(90);
    const queries = (tag: number): Record<string, string>[] => [
      { tags: String(tag), pageSize: '5' },
      { search: 'speeltuin', pageSize: '5' },
      { search: 'spee idee', tags: String(tag), pageSize: '5' },
      { near: `${CENTRE.lat},${CENTRE.lng}`, radius: '3000', pageSize: '5' },
      { near: `${CENTRE.lat},${CENTRE.lng}`, radius: '1000', sort: 'distance', pageSize: '5' },
      { bbox: '52,4,53,5', status: 'OPEN', pageSize: '5', sort: 'votes_desc' },
      { status: 'OPEN', pageSize: '5', includeVoteCount: '1', includeUser: '1' },
    ];
    const measure = async (siteId: number, query: Record<string, string>, marker = false) => {
      const { result, requests } = await countRequests<InvokeResult<ListEnvelope<IdeaRecord | MarkerRecord>>>(() => (marker ? api.markers(siteId, query) : api.list(siteId, query)));
      expect(result.status).toBe(200);
      expect(result.body.records.length, JSON.stringify(query)).toBeGreaterThan(0);
      return requests;
    };
    const costs: string[] = [];
    const qs = queries(small.tag);
    const ql = queries(large.tag);
    for (let i = 0; i < qs.length; i++) {
      const smallCost = await measure(small.siteId, qs[i]!);
      const largeCost = await measure(large.siteId, ql[i]!);
      // Nearest first widens its ring where ideas are sparse: at most 3 rounds of cell Queries.
      if (qs[i]!.sort === 'distance') expect(Math.max(smallCost, largeCost)).toBeLessThanOrEqual(2 + 3 * 9);
      else expect(largeCost, JSON.stringify(qs[i])).toBe(smallCost);
      // At most: site, the driving Queries (a geo area: up to 9 cells, in parallel), one BatchGet, tallies.
      if (qs[i]!.sort !== 'distance') expect(smallCost).toBeLessThanOrEqual(12);
      costs.push(`${JSON.stringify(qs[i])}: ${smallCost}`);
      const smallMarkers = await measure(small.siteId, qs[i]!, true);
      if (qs[i]!.sort !== 'distance') expect(await measure(large.siteId, ql[i]!, true)).toBe(smallMarkers);
    }
    console.log(costs.join('\n'));
    // Nearest first, page by page (rings widen and the cursor carries the distance), is the exact order.
    const near = { lat: CENTRE.lat + 0.007, lng: CENTRE.lng + 0.005 };
    const every = await allPages((q) => api.markers(large.siteId, q), { pageSize: '100' });
    const expected = every
      .map((m) => ({ id: m.id as number, d: distanceMeters(near, m.location) }))
      .filter((m) => m.d <= 1500)
      .sort((a, b) => a.d - b.d || a.id - b.id)
      .map((m) => m.id);
    expect(expected.length).toBeGreaterThan(20);
    for (const pageSize of ['1', '7']) {
      const paged = await allPages((q) => api.list(large.siteId, q), { near: `${near.lat},${near.lng}`, radius: '1500', sort: 'distance', pageSize });
      expect(ids(paged)).toEqual(expected);
    }
    // The figures in docs/data-model.md.
    expect(await measure(large.siteId, { tags: String(large.tag) })).toBe(3);
    expect(await measure(large.siteId, { search: 'speeltuin' })).toBe(3);
    expect(await measure(large.siteId, {}, true)).toBe(3);
    // Seeding 102 ideas through the handlers takes minutes on a loaded two-core machine.
  }, 600_000);
});
