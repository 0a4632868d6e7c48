/**
 * Attack: the OpenStad surface and HTTP caches. The surface builds its answers from main answers, so
 * a validator or cache header of a main answer must never reach its own: an ETag that is not the hash
 * of the body sent keeps stale content alive after a change (a revalidation answered 304), and a
 * conditional header forwarded to an inner call can make that call answer 304 and the surface answer
 * a wrong body as a cacheable 200. Also: the stats routes answer GET only, and a stats path under a
 * site closed by Basic Auth is 401 before anything else, as every path of that site.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as surface } from '../../../functions/openstad/handler.ts';
import { handler as catchAll } from '../../../functions/system/not-found.ts';
import { call, type CallOptions } from '../../../scripts/lambda-call.ts';
import { etagOf } from '#lib/crypto/etag';
import { createSite, SERVICE_TOKEN } from '#tests/support/fixtures';
import { putIdea } from '#tests/support/ideas-fixture';

type Rec = Record<string, unknown>;
/** A surface request; a query in `path` goes as the query. */
const os = (path: string, options: CallOptions = {}) => {
  const [bare, query] = path.split('?');
  return call(surface, { ...options, path: `/openstad${bare!}`, ...(query ? { query: Object.fromEntries(new URLSearchParams(query)) } : {}) });
};

let siteId: number;
let ideaId: number;
let tagId: number;
/** Every read of the surface on the site, anonymous. */
let reads: string[];

beforeAll(async () => {
  siteId = (await createSite({ votes: { isActive: true, voteType: 'likes', isViewable: false } })).id;
  const tag = await os(`/api/site/${siteId}/tag`, { method: 'POST', token: SERVICE_TOKEN, body: { name: 'Groen', group: 'theme' } });
  expect(tag.status, tag.text).toBe(201);
  tagId = (JSON.parse(tag.text) as Rec)['id'] as number;
  ideaId = (await putIdea(siteId, { fields: { title: 'Plan A for the park', tags: [tagId], location: { lat: 52.37, lng: 4.89 } } })).id;
  await putIdea(siteId, { fields: { title: 'Plan B for the park', tags: [], location: { lat: 52.36, lng: 4.88 } } });
  const s = `/api/site/${siteId}`;
  reads = [
    s,
    `${s}/idea`,
    `${s}/idea?page=0&pageSize=1`,
    `${s}/idea/${ideaId}`,
    `${s}/idea-marker`,
    `${s}/tag`,
    `${s}/idea/${ideaId}/argument`,
    `${s}/article`,
    `/stats/site/${siteId}/idea/total`,
    `/stats/site/${siteId}/argument/total`,
  ];
});

describe('the OpenStad surface under HTTP caches', () => {
  it('tags every read with the hash of the body it sends, and caches only anonymous reads', async () => {
    for (const path of reads) {
      const answer = await os(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(200);
      const withToken = await os(path, { token: SERVICE_TOKEN });
      expect(withToken.headers['cache-control'], path).toBe('private, no-store');
      expect(withToken.headers['etag'], path).toBeUndefined();
      // Public exactly where every main read it was built from is public (arguments are not: no tag).
      if (path.includes('/argument')) {
        expect(answer.headers['etag'], path).toBeUndefined();
        expect(answer.headers['cache-control'], path).toBe('no-store');
        continue;
      }
      expect(answer.headers['etag'], path).toBe(etagOf(answer.text));
      expect(answer.headers['cache-control'], path).toMatch(/^public/);
    }
  });

  it("answers a revalidation after a tag's rename with the new body, never 304 with the old", async () => {
    const paths = [`/api/site/${siteId}/idea`, `/api/site/${siteId}/idea/${ideaId}`];
    const before = await Promise.all(paths.map((path) => os(path)));
    for (const answer of before) expect(answer.text).toContain('Groen');
    const renamed = await os(`/api/site/${siteId}/tag/${tagId}`, { method: 'PUT', token: SERVICE_TOKEN, body: { name: 'Blauw' } });
    expect(renamed.status, renamed.text).toBe(200);
    for (const [i, path] of paths.entries()) {
      const again = await os(path, { headers: { 'If-None-Match': before[i]!.headers['etag']! } });
      expect(again.status, path).toBe(200);
      expect(again.text, path).toContain('Blauw');
      expect(again.headers['etag'], path).toBe(etagOf(again.text));
      expect(again.headers['etag'], path).not.toBe(before[i]!.headers['etag']);
    }
  });

  it("never changes a 200 body for a conditional header naming another resource's tag", async () => {
    const plain = new Map<string, { text: string; etag: string | undefined }>();
    for (const path of reads) {
      const answer = await os(path);
      plain.set(path, { text: answer.text, etag: answer.headers['etag'] });
    }
    for (const path of reads) {
      for (const [other, { etag }] of plain) {
        if (other === path || etag === undefined) continue;
        for (const headers of [{ 'If-None-Match': etag }, { 'If-Modified-Since': new Date().toUTCString() }] as Record<string, string>[]) {
          const answer = await os(path, { headers });
          expect(answer.status, `${path} with ${JSON.stringify(headers)} of ${other}`).toBe(200);
          expect(answer.text, `${path} with the tag of ${other}`).toBe(plain.get(path)!.text);
          expect(answer.headers['etag']).toBe(plain.get(path)!.etag);
        }
      }
      // Its own tag is a 304 without a body.
      if (plain.get(path)!.etag === undefined) continue;
      const own = await os(path, { headers: { 'If-None-Match': plain.get(path)!.etag! } });
      expect(own.status, path).toBe(304);
      expect(own.text).toBe('');
    }
  });

  it('lists ideas with their tags, or not at all: never with tags left out', async () => {
    const answer = await os(`/api/site/${siteId}/idea`, { headers: { 'If-None-Match': (await os(`/api/site/${siteId}/tag`)).headers['etag']! } });
    expect(answer.status).toBe(200);
    const ideas = JSON.parse(answer.text) as Rec[];
    expect(ideas.find((idea) => idea['id'] === ideaId)!['tags']).toEqual([{ id: tagId, name: 'Blauw', type: 'theme' }]);
  });

  it('orders no list by a count the caller may not see', async () => {
    // The surface takes OpenStad's `sort` only on the idea list (where a hidden-count sort is ignored).
    const s = `/api/site/${siteId}`;
    for (const path of [`${s}/idea-marker`, `${s}/idea/${ideaId}/argument`, `${s}/article`, `${s}/tag`]) {
      const plain = await os(path);
      for (const sort of ['votes_desc', 'votes_asc']) expect((await os(`${path}?sort=${sort}`)).text, `${path} sort=${sort}`).toBe(plain.text);
    }
  });
});

describe('the OpenStad stats routes', () => {
  const STATS = ['idea/total', 'argument/total', 'vote/total', 'vote/no-of-users', 'overview'];

  it('answer GET only: another method is the catch-all 404, as on the main API', async () => {
    for (const stat of STATS) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const path = `/stats/site/${siteId}/${stat}`;
        const answer = await os(path, { method, token: SERVICE_TOKEN, body: {} });
        const main = await call(catchAll, { method, path: `/api/site/${siteId}/${stat}`, token: SERVICE_TOKEN, body: {} });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(404);
        expect(main.status).toBe(404);
        expect((JSON.parse(answer.text) as Rec)['error']).toBe((JSON.parse(main.text) as Rec)['error']);
      }
    }
  });

  it('under a site closed by Basic Auth answer 401 first, on an unknown stats path and another method too', async () => {
    const closed = (await createSite({ basicAuth: { active: true, user: 'u', password: 'secret-pass' } })).id;
    for (const [method, stat] of [['GET', 'unknown'], ['GET', 'idea/total/extra'], ['POST', 'idea/total'], ['DELETE', 'vote/total'], ['GET', 'idea/total']] as const) {
      const answer = await os(`/stats/site/${closed}/${stat}`, { method });
      expect(answer.status, `${method} ${stat}: ${answer.text}`).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Basic/);
    }
    const basic = { Authorization: `Basic ${Buffer.from('u:secret-pass').toString('base64')}` };
    expect((await os(`/stats/site/${closed}/unknown`, { headers: basic })).status).toBe(404);
    expect((await os(`/stats/site/${closed}/idea/total`, { headers: basic })).status).toBe(200);
  });
});
