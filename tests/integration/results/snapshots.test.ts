/**
 * Results served from a stored snapshot (docs/results.md "Results snapshots"): anonymous and member
 * reads cost at most two DynamoDB requests whatever the site's size and never compute or write; the
 * ETag and If-None-Match (304); Cache-Control a CDN may keep for public results only; a snapshot larger
 * than a DynamoDB item; one computation per site at a time; a computation stopped at its deadline and
 * resumed; a moderator's fresh results; POST compute and the background job.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { runJob } from '#lib/jobs/index';
import { computeSiteResults } from '#lib/results/compute';
import { RECOMPUTE_INTERVAL_SECONDS } from '#lib/results/service';
import { CHUNK_BYTES, packSnapshot } from '#lib/results/snapshot';
import { findSite } from '#lib/sites/site';
import { getJobMarker } from '#lib/store/jobs/jobs';
import { getResultsHead, getResultsState, takeResultsLease, writeResultsSnapshot } from '#lib/store/results/snapshots';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/vote-fixtures';
import { putBallots } from '#tests/support/ballot-fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as getResults } from '../../../functions/results/get.ts';
import { handler as postCompute } from '../../../functions/results/compute.ts';
import type { ResultsRecord } from '#tests/support/bodies';

const results = (siteId: number, options: { token?: string; ifNoneMatch?: string } = {}) =>
  invoke<ResultsRecord>(getResults, {
    method: 'GET',
    path: '/api/site/{siteId}/results',
    params: { siteId },
    ...(options.token ? { token: options.token } : {}),
    ...(options.ifNoneMatch ? { headers: { 'if-none-match': options.ifNoneMatch } } : {}),
  });

const PUBLIC: SiteConfigInput = { votes: { isViewable: true, voteType: 'budgeting', maxBudget: 1000 } };

async function votedSite(config: SiteConfigInput = PUBLIC, ballots = 40) {
  const site = await createSite(config);
  const ideas = await Promise.all(Array.from({ length: 6 }, (_, i) => createIdea(site.id, { budget: 150 + 20 * i })));
  await putBallots(site.id, Array.from({ length: ballots }, (_, i) => ({ ideaIds: ideas.filter((_, j) => (i * 7 + j) % 4 === 0).map((idea) => idea.id) })));
  return { site, ideas };
}

const loaded = async (siteId: number) => (await findSite(siteId))!;

describe('reading a snapshot', () => {
  it('before the first snapshot: 202 with Location and Retry-After to anyone who may read, and nothing is written', async () => {
    const { site } = await votedSite();
    const member = await createUser(site.id, 'member');
    for (const token of [undefined, member.token]) {
      const { result, commands } = await countRequests(() => results(site.id, token ? { token } : {}));
      expect(result.status).toBe(202);
      expect(result.headers.location).toBe(`/api/site/${site.id}/results`);
      expect(Number(result.headers['retry-after'])).toBeGreaterThan(0);
      // The site, the caller and the (absent) snapshot head in the request's one read; no write, no computation.
      expect(commands).toEqual({ BatchGetItemCommand: 1 });
    }
    expect(await getResultsHead(site.id)).toBeUndefined();
  });

  it('anonymous and member reads cost one request, with a strong ETag, public caching and 304 for If-None-Match', async () => {
    const { site } = await votedSite(PUBLIC, 1000);
    const member = await createUser(site.id, 'member');
    const computed = await results(site.id, { token: SERVICE_TOKEN });
    expect(computed.status).toBe(200);
    expect(computed.headers['cache-control']).toBe('private, no-store');
    const etag = computed.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    const { result, commands } = await countRequests(() => results(site.id));
    expect(commands).toEqual({ BatchGetItemCommand: 1 });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(computed.body);
    expect(result.body.ballots).toBe(1000);
    expect(result.headers.etag).toBe(etag);
    expect(result.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');

    const asMember = await countRequests(() => results(site.id, { token: member.token }));
    expect(asMember.commands).toEqual({ BatchGetItemCommand: 1 });
    // Read with a token: private, whatever the site shows everyone.
    expect(asMember.result.headers['cache-control']).toBe('private, no-store');

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const notModified = await countRequests(() => results(site.id, { ifNoneMatch: header }));
      expect(notModified.result.status, header).toBe(304);
      expect(notModified.result.headers.etag).toBe(etag);
      expect(notModified.commands).toEqual({ BatchGetItemCommand: 1 });
    }
    expect((await results(site.id, { ifNoneMatch: '"stale"' })).status).toBe(200);
  });

  it('results that are not public: 401 and 403 as before, never cached by a CDN', async () => {
    const { site } = await votedSite({ votes: { voteType: 'budgeting', maxBudget: 1000 } });
    const member = await createUser(site.id, 'member');
    expect((await results(site.id)).status).toBe(401);
    expect((await results(site.id, { token: member.token })).status).toBe(403);
    const moderator = await createUser(site.id, 'moderator');
    const answer = await results(site.id, { token: moderator.token });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });

  it('public results of a site behind Basic Auth are never kept by a shared cache (it would serve them without the credentials)', async () => {
    const { site } = await votedSite({ ...PUBLIC, basicAuth: { active: true, user: 'city', password: 'closed-for-now' } });
    expect(await computeSiteResults(await loaded(site.id), { deadline: new Date(Date.now() + 60_000) })).toBe('done');
    const credentials = { authorization: `Basic ${Buffer.from('city:closed-for-now').toString('base64')}` };
    const answer = await invoke<ResultsRecord>(getResults, { method: 'GET', path: '/api/site/{siteId}/results', params: { siteId: site.id }, headers: credentials });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const again = await invoke<ResultsRecord>(getResults, { method: 'GET', path: '/api/site/{siteId}/results', params: { siteId: site.id }, headers: { ...credentials, 'if-none-match': answer.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-store');
    expect((await results(site.id)).status).toBe(401);
  });

  it('a snapshot larger than a DynamoDB item is stored in chunks and read with one more request', async () => {
    const site = await createSite(PUBLIC);
    // Incompressible titles: about 3 x CHUNK_BYTES of gzipped JSON.
    const body = { voteType: 'likes', computedAt: new Date().toISOString(), ballots: 0, checkpoint: null, ideas: Array.from({ length: 9000 }, (_, i) => ({ id: i + 1, title: randomBytes(75).toString('base64'), yes: 0, no: 0, rank: 1 })) };
    const packed = packSnapshot(body);
    expect(packed.chunks.length).toBeGreaterThanOrEqual(3);
    expect(packed.chunks.every((chunk) => chunk.length <= CHUNK_BYTES)).toBe(true);
    await writeResultsSnapshot({ head: { siteId: site.id, etag: packed.etag, computedAt: body.computedAt, coveredUntil: body.computedAt, ballots: 0, generation: 'g1' }, chunks: packed.chunks, replaces: null }, new Date());
    const { result, commands } = await countRequests(() => results(site.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual(body);
    expect(commands).toEqual({ BatchGetItemCommand: 2 });

    // Replaced by a small one: the head holds it again, the old chunks are left to expire.
    const small = packSnapshot({ ...body, ideas: [] });
    expect(await writeResultsSnapshot({ head: { siteId: site.id, etag: small.etag, computedAt: body.computedAt, coveredUntil: body.computedAt, ballots: 0, generation: 'g2' }, chunks: small.chunks, replaces: { generation: 'g1', chunks: packed.chunks.length } }, new Date())).toBe(true);
    const after = await countRequests(() => results(site.id));
    expect(after.result.body.ideas).toEqual([]);
    expect(after.commands).toEqual({ BatchGetItemCommand: 1 });
    // A writer that read an older head loses: the newer snapshot stands.
    expect(await writeResultsSnapshot({ head: { siteId: site.id, etag: small.etag, computedAt: body.computedAt, coveredUntil: body.computedAt, ballots: 0, generation: 'g3' }, chunks: small.chunks, replaces: { generation: 'g1', chunks: 0 } }, new Date())).toBe(false);
  });
});

describe('who computes', () => {
  it('a moderator gets fresh results: computed when stale (the site changed since), the snapshot reused when not', async () => {
    const { site } = await votedSite();
    // Right after the votes, a read recomputes: a round may still be committing (the snapshot covers
    // the ballots up to a settle time before it read them). Two minutes on, they have settled.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 });
    const first = await results(site.id, { token: SERVICE_TOKEN });
    const again = await results(site.id, { token: SERVICE_TOKEN });
    expect(again.body.computedAt).toBe(first.body.computedAt);
    // A config change (the budget) changes the results: the next moderator read past the interval
    // computes. (The faked clock stands still: moved on by hand.)
    vi.setSystemTime(Date.now() + 1_000);
    await invoke(await import('../../../functions/sites/update.ts').then((m) => m.handler), { method: 'PUT', params: { siteId: site.id }, body: { config: { ...PUBLIC, votes: { ...PUBLIC.votes, maxBudget: 200 } } }, token: SERVICE_TOKEN });
    vi.setSystemTime(Date.now() + RECOMPUTE_INTERVAL_SECONDS * 1000);
    const fresh = await results(site.id, { token: SERVICE_TOKEN });
    expect(fresh.body.computedAt > first.body.computedAt).toBe(true);
    expect(fresh.body.winners!.greedy.spent).toBeLessThanOrEqual(200);
    // ... and anonymous readers get that very snapshot.
    expect((await results(site.id)).body).toEqual(fresh.body);
    vi.useRealTimers();
  });

  it('a snapshot that holds every ballot change is fresh: reads during a busy minute compute at most once per interval, and only after a change', async () => {
    const { site, ideas } = await votedSite();
    const start = Date.now();
    const moderatorRead = () => countRequests(() => results(site.id, { token: SERVICE_TOKEN }));
    const first = await moderatorRead();
    expect(first.result.status).toBe(200);
    expect(first.result.body.ballots).toBe(40);

    // Right after, the votes still inside their settle minute: the snapshot holds them, nothing is computed.
    const second = await moderatorRead();
    expect(second.commands).toEqual({ BatchGetItemCommand: 1 });
    expect(second.result.body.computedAt).toBe(first.result.body.computedAt);

    // Past the interval, still within the votes' minute: one COUNT Query of the settle window finds
    // nothing it did not count, so the snapshot is served again.
    vi.useFakeTimers({ toFake: ['Date'], now: start + RECOMPUTE_INTERVAL_SECONDS * 1000 + 1_000 });
    try {
      const third = await moderatorRead();
      expect(third.commands).toEqual({ BatchGetItemCommand: 1, QueryCommand: 1 });
      expect(third.result.body.computedAt).toBe(first.result.body.computedAt);

      // A ballot change after the snapshot: the next read computes.
      await putBallots(site.id, [{ ideaIds: [ideas[0]!.id] }]);
      const fourth = await moderatorRead();
      expect(fourth.result.body.ballots).toBe(41);
      expect(fourth.result.body.computedAt > first.result.body.computedAt).toBe(true);

      // Another change at once: within the interval the snapshot just computed is served (the bound) ...
      await putBallots(site.id, [{ ideaIds: [ideas[1]!.id] }]);
      const fifth = await moderatorRead();
      expect(fifth.commands).toEqual({ BatchGetItemCommand: 1 });
      expect(fifth.result.body.ballots).toBe(41);
      // ... and the first read past it computes.
      vi.setSystemTime(Date.now() + RECOMPUTE_INTERVAL_SECONDS * 1000);
      const sixth = await moderatorRead();
      expect(sixth.result.body.ballots).toBe(42);

      // A round stamped before the snapshot's read that commits after it (it was still committing) is
      // not in the snapshot: it counts as a change too.
      const computedAt = Date.parse(sixth.result.body.computedAt);
      vi.setSystemTime(computedAt - 10_000);
      await putBallots(site.id, [{ ideaIds: [ideas[2]!.id] }]);
      vi.setSystemTime(computedAt + RECOMPUTE_INTERVAL_SECONDS * 1000 + 1_000);
      const seventh = await moderatorRead();
      expect(seventh.result.body.ballots).toBe(43);
    } finally {
      vi.useRealTimers();
    }
  });

  it('at most one computation per site at a time: a moderator finding the lease held gets 202', async () => {
    const { site } = await votedSite();
    expect(await takeResultsLease(site.id, 'someone else', new Date(), new Date(Date.now() + 60_000))).toBe(true);
    expect(await takeResultsLease(site.id, 'a second', new Date(), new Date(Date.now() + 60_000))).toBe(false);
    const answer = await results(site.id, { token: SERVICE_TOKEN });
    expect(answer.status).toBe(202);
    expect(await computeSiteResults(await loaded(site.id), { deadline: new Date(Date.now() + 10_000) })).toBe('busy');
    // A lease that ran out is taken over.
    expect(await takeResultsLease(site.id, 'later', new Date(Date.now() + 120_000), new Date(Date.now() + 180_000))).toBe(true);
  });

  it('a computation stopped at its deadline stores its progress and the next one goes on to the same answer', async () => {
    // Few voters and a budget well above their first share: the add-one completion takes 15 runs.
    const site = await createSite({ votes: { isViewable: true, voteType: 'budgeting', maxBudget: 1500 } });
    const ideas = await Promise.all([700, 400, 250, 200, 100, 900, 1300].map((budget) => createIdea(site.id, { budget })));
    await putBallots(site.id, [[0, 1], [0, 1, 2], [0, 1], [2, 3, 4], [3], [3, 4], [2, 3, 4], [0], [5, 6], [6]].map((picks) => ({ ideaIds: picks.map((i) => ideas[i]!.id) })));
    const reference = await votedReference(site.id);
    let calls = 0;
    let outcome: string;
    do {
      outcome = await computeSiteResults(await loaded(site.id), { deadline: new Date(Date.now() - 1) });
      calls += 1;
      if (outcome === 'unfinished') expect((await getResultsState(site.id))!.progress).toMatch(/fingerprint/);
    } while (outcome !== 'done' && calls < 2000);
    expect(calls).toBeGreaterThan(3);
    const stored = await results(site.id);
    expect({ ...stored.body, computedAt: 0 }).toEqual({ ...reference, computedAt: 0 });
    expect((await getResultsState(site.id))!.progress).toBeUndefined();
  }, 600_000);

  it('POST .../results/compute: moderators only, 202, and the background job writes the snapshot', async () => {
    const { site } = await votedSite();
    const member = await createUser(site.id, 'member');
    const moderator = await createUser(site.id, 'moderator');
    expect((await invoke(postCompute, { method: 'POST', params: { siteId: site.id } })).status).toBe(401);
    expect((await invoke(postCompute, { method: 'POST', params: { siteId: site.id }, token: member.token })).status).toBe(403);
    const asked = await invoke(postCompute, { method: 'POST', params: { siteId: site.id }, token: moderator.token });
    expect(asked.status).toBe(202);
    expect(asked.headers.location).toBe(`/api/site/${site.id}/results`);
    expect((await getJobMarker(site.id, 'results'))!.dueAt! <= new Date().toISOString()).toBe(true);
    const report = await runJob('results', { now: new Date(), siteId: site.id });
    expect(report.sites[0]!.done).toEqual(['results computed']);
    expect((await results(site.id)).status).toBe(200);
    expect((await getJobMarker(site.id, 'results'))!.dueAt).toBeNull();
  });
});

/** What one uninterrupted computation of the site gives (a second site's snapshot would differ in ids). */
async function votedReference(siteId: number) {
  const { computeResults } = await import('#lib/results/results');
  const { readSiteBallots, readSiteIdeas } = await import('#lib/store/ballots/site-ranges');
  const { resultsIdeaOf } = await import('#lib/results/compute');
  const { entryVotes } = await import('#lib/votes/seal');
  const site = await loaded(siteId);
  const [ideas, ballots] = await Promise.all([readSiteIdeas(siteId), readSiteBallots(siteId, 'votes')]);
  return {
    ...computeResults({ config: site.config.votes, ideas: ideas.map(resultsIdeaOf), ballots: ballots.map((b) => ({ votes: entryVotes(b.votes) })).filter((b) => b.votes.length > 0), computedAt: '' }),
    checkpoint: null,
  };
}
