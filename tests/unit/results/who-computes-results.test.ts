/**
 * Reading a site's results (lib/results/service.ts) with the store as a double: only a moderator's or
 * a service token's GET computes, and only when there is no snapshot or it is stale (a log entry after
 * what it covers, a stale mark, a config change after it); an unfinished computation is a 202 that
 * leaves the job due; an `If-None-Match` naming the snapshot is a 304; shared caches may keep only what
 * anybody may read; a snapshot replaced between the two reads is read from the new head.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '#lib/auth/caller';
import { NOBODY } from '#lib/auth/caller';
import { packSnapshot } from '#lib/results/snapshot';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { getResultsState, ResultsHead } from '#lib/store/results/snapshots';

type ResultsState = NonNullable<Awaited<ReturnType<typeof getResultsState>>>;

const store = vi.hoisted(() => ({
  heads: [] as Array<ResultsHead | undefined>,
  bodies: [] as Array<Uint8Array[] | undefined>,
  state: undefined as ResultsState | undefined,
  newest: undefined as string | undefined,
  /** What the COUNT Query of the log answers, and what it was asked. */
  count: 0,
  counted: [] as unknown[][],
  outcome: 'done' as 'done' | 'unfinished' | 'busy',
  computed: [] as Array<{ siteId: number; deadline: Date }>,
  jobsDue: [] as Array<{ siteId: number; job: string }>,
  headReads: 0,
}));

vi.mock('#lib/store/results/snapshots', () => ({
  getResultsHead: vi.fn(async () => {
    const i = Math.min(store.headReads++, store.heads.length - 1);
    return store.heads[i];
  }),
  getResultsState: vi.fn(async () => store.state),
  readResultsBody: vi.fn(async () => store.bodies.shift()),
}));
vi.mock('#lib/store/vote-log/log', () => ({
  newestLogEntryAt: vi.fn(async () => store.newest),
  countLogEntriesAfter: vi.fn(async (...args: unknown[]) => {
    store.counted.push(args);
    return store.count;
  }),
}));
vi.mock('#lib/store/jobs/jobs', () => ({
  makeJobDueBy: vi.fn(async (siteId: number, job: string) => {
    store.jobsDue.push({ siteId, job });
  }),
}));
vi.mock('#lib/results/compute', () => ({
  computeSiteResults: vi.fn(async (site: Site, options: { deadline: Date }) => {
    store.computed.push({ siteId: site.id, deadline: options.deadline });
    return store.outcome;
  }),
}));

const { readResults, requestResultsComputation, resultsPath } = await import('#lib/results/service');

/** Real time a moderator's GET may spend computing, and what a 202 asks the client to wait (lib/results/service.ts). */
const REQUEST_COMPUTE_MS = 20_000;
const RETRY_AFTER_SECONDS = 30;

const SITE_ID = 12;
const COMPUTED_AT = '2026-05-01T10:00:00.000Z';
const siteWith = (votes: Record<string, unknown> = {}, updatedAt = '2026-05-01T09:00:00.000Z', more: Record<string, unknown> = {}): Site =>
  ({ id: SITE_ID, name: 's', updatedAt, config: withDefaults({ votes: { isViewable: false, ...votes }, ...more }) }) as unknown as Site;
const user = (role: 'member' | 'moderator' | 'editor' | 'admin'): Caller => ({ kind: 'user', role, userId: 5, siteId: SITE_ID, user: {} as never });
const SERVICE: Caller = { kind: 'service', role: 'admin', userId: undefined };

const body = { ideas: [{ id: 1, votes: 2 }], computedAt: COMPUTED_AT };
const packed = packSnapshot(body);
const headOf = (etag = packed.etag): ResultsHead => ({ siteId: SITE_ID, etag, computedAt: COMPUTED_AT, coveredUntil: '2026-05-01T09:59:00.000Z', ballots: 2, generation: 'g1', chunks: 0 });

beforeEach(() => {
  Object.assign(store, { heads: [headOf()], bodies: [packed.chunks], state: undefined, newest: undefined, count: 0, counted: [], outcome: 'done', computed: [], jobsDue: [], headReads: 0 });
});

describe('reading the results', () => {
  it('answers the stored snapshot without computing when it is fresh', async () => {
    store.newest = '2026-05-01T09:58:00.000Z';
    const answer = await readResults(siteWith(), user('moderator'), undefined);
    expect(answer).toEqual({ kind: 'ok', body, etag: packed.etag, shared: false });
    expect(store.computed).toEqual([]);
  });

  it('is refused to somebody who is not a moderator while the results are not public', async () => {
    await expect(readResults(siteWith(), user('member'), undefined)).rejects.toMatchObject({ status: 403 });
    await expect(readResults(siteWith(), NOBODY, undefined)).rejects.toMatchObject({ status: 401 });
    expect(store.headReads).toBe(0);
  });

  it('may be kept by shared caches only when anybody may read it and nobody signed in', async () => {
    store.bodies = [packed.chunks, packed.chunks, packed.chunks];
    expect(await readResults(siteWith({ isViewable: true }), NOBODY, undefined)).toMatchObject({ kind: 'ok', shared: true });
    expect(await readResults(siteWith({ isViewable: true }), user('member'), undefined)).toMatchObject({ kind: 'ok', shared: false });
    const ended = siteWith({}, undefined, { project: { projectHasEnded: true } });
    expect(await readResults(ended, NOBODY, undefined)).toMatchObject({ kind: 'ok', shared: true });
  });

  it('is a 304 when If-None-Match names the snapshot, and the body is not read', async () => {
    const answer = await readResults(siteWith({ isViewable: true }), NOBODY, `"other", ${packed.etag}`);
    expect(answer).toEqual({ kind: 'not-modified', etag: packed.etag, shared: true });
    expect(store.bodies).toHaveLength(1);
  });

  it('is a 202 without a snapshot when the caller may not compute, and nothing is computed or scheduled', async () => {
    store.heads = [undefined];
    expect(await readResults(siteWith({ isViewable: true }), user('member'), undefined)).toEqual({ kind: 'accepted', retryAfterSeconds: RETRY_AFTER_SECONDS });
    expect(store.computed).toEqual([]);
    expect(store.jobsDue).toEqual([]);
  });
});

describe('a moderator reading the results', () => {
  const stale = {
    'no snapshot yet': () => {
      store.heads = [undefined, headOf()];
    },
    'a log entry after what the snapshot covers': () => {
      store.newest = '2026-05-01T09:59:00.001Z';
    },
    'a stale mark': () => {
      store.state = { siteId: SITE_ID, staleSince: '2026-05-01T10:05:00.000Z' } as ResultsState;
    },
    'a config change after the snapshot': () => {
      store.newest = '2026-05-01T09:00:00.000Z';
    },
  };

  for (const [why, arrange] of Object.entries(stale)) {
    it(`computes within the request's budget on ${why}, then answers the new snapshot`, async () => {
      arrange();
      const site = why === 'a config change after the snapshot' ? siteWith({}, '2026-05-01T10:00:00.001Z') : siteWith();
      const before = Date.now();
      const answer = await readResults(site, user('moderator'), undefined);
      expect(answer).toMatchObject({ kind: 'ok', body, etag: packed.etag });
      expect(store.computed).toHaveLength(1);
      const budget = store.computed[0]!.deadline.getTime() - before;
      expect(budget).toBeGreaterThanOrEqual(REQUEST_COMPUTE_MS);
      expect(budget).toBeLessThanOrEqual(REQUEST_COMPUTE_MS + (Date.now() - before));
      expect(store.jobsDue).toEqual([]);
    });
  }

  it('does not compute when the newest entry is exactly what the snapshot covers, or the config changed exactly then', async () => {
    store.newest = '2026-05-01T09:59:00.000Z';
    await readResults(siteWith({}, COMPUTED_AT), user('admin'), undefined);
    expect(store.computed).toEqual([]);
  });

  it('a snapshot that covers no log time (coveredUntil null) is stale only by a config change after it', async () => {
    store.heads = [{ ...headOf(), coveredUntil: null }];
    store.bodies = [packed.chunks, packed.chunks];
    store.newest = '2026-05-01T11:00:00.000Z';
    store.state = { siteId: SITE_ID, staleSince: '2026-05-01T10:05:00.000Z' } as ResultsState;
    await readResults(siteWith(), user('moderator'), undefined);
    expect(store.computed).toEqual([]);
    expect(store.counted).toEqual([]);
    await readResults(siteWith({}, '2026-05-01T10:00:00.001Z'), user('moderator'), undefined);
    expect(store.computed).toHaveLength(1);
  });

  it('a snapshot with its settling count is stale when the log holds more entries after coveredUntil than it counted, counting no further', async () => {
    // The newest entry and a stale mark do not decide for such a snapshot: only the count does.
    store.newest = '2026-05-01T11:00:00.000Z';
    store.state = { siteId: SITE_ID, staleSince: '2026-05-01T10:05:00.000Z' } as ResultsState;
    store.heads = [{ ...headOf(), settling: 2 }];
    store.bodies = [packed.chunks, packed.chunks];
    store.count = 2;
    await readResults(siteWith(), user('moderator'), undefined);
    expect(store.computed).toEqual([]);
    expect(store.counted).toEqual([[SITE_ID, '2026-05-01T09:59:00.000Z', 2]]);
    store.count = 3;
    await readResults(siteWith(), user('moderator'), undefined);
    expect(store.computed).toHaveLength(1);
  });

  it('a snapshot that counted no settling entries is stale at the first entry after coveredUntil', async () => {
    store.heads = [{ ...headOf(), settling: 0 }];
    store.bodies = [packed.chunks, packed.chunks];
    await readResults(siteWith(), user('moderator'), undefined);
    expect(store.computed).toEqual([]);
    store.count = 1;
    await readResults(siteWith(), user('moderator'), undefined);
    expect(store.computed).toHaveLength(1);
    expect(store.counted).toEqual([[SITE_ID, '2026-05-01T09:59:00.000Z', 0], [SITE_ID, '2026-05-01T09:59:00.000Z', 0]]);
  });

  it('serves a snapshot computed less than 30 s ago as it is; at 30 s it looks whether it is stale', async () => {
    store.newest = '2026-05-01T09:59:00.001Z';
    store.bodies = [packed.chunks, packed.chunks];
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse(COMPUTED_AT) + 29_999);
      await readResults(siteWith(), user('moderator'), undefined);
      expect(store.computed).toEqual([]);
      vi.setSystemTime(Date.parse(COMPUTED_AT) + 30_000);
      await readResults(siteWith(), user('moderator'), undefined);
      expect(store.computed).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('computes for a service token too', async () => {
    store.state = { siteId: SITE_ID, staleSince: '2026-05-01T10:05:00.000Z' } as ResultsState;
    await readResults(siteWith(), SERVICE, undefined);
    expect(store.computed).toHaveLength(1);
  });

  for (const outcome of ['unfinished', 'busy'] as const) {
    it(`is a 202 that leaves the results job due when the computation is ${outcome}`, async () => {
      store.heads = [undefined];
      store.outcome = outcome;
      expect(await readResults(siteWith(), user('editor'), undefined)).toEqual({ kind: 'accepted', retryAfterSeconds: RETRY_AFTER_SECONDS });
      expect(store.jobsDue).toEqual([{ siteId: SITE_ID, job: 'results' }]);
    });
  }

  it('reads a snapshot replaced between the two reads from the new head', async () => {
    const next = packSnapshot({ ...body, ideas: [] });
    store.newest = '2026-05-01T09:00:00.000Z';
    store.heads = [headOf(), headOf(next.etag)];
    store.bodies = [undefined, next.chunks];
    expect(await readResults(siteWith(), user('moderator'), undefined)).toMatchObject({ kind: 'ok', body: { ...body, ideas: [] }, etag: next.etag });
  });

  it('fails loudly when the new head has no chunks either', async () => {
    store.newest = '2026-05-01T09:00:00.000Z';
    store.bodies = [undefined, undefined];
    await expect(readResults(siteWith(), user('moderator'), undefined)).rejects.toThrow(`results snapshot of site ${SITE_ID}: chunks missing`);
  });
});

describe('asking for a computation', () => {
  it('is for moderators and above; it makes the results job due and asks to look again later', async () => {
    await expect(requestResultsComputation(siteWith(), user('member'))).rejects.toMatchObject({ status: 403 });
    expect(store.jobsDue).toEqual([]);
    expect(await requestResultsComputation(siteWith(), user('moderator'))).toEqual({ retryAfterSeconds: RETRY_AFTER_SECONDS });
    expect(store.jobsDue).toEqual([{ siteId: SITE_ID, job: 'results' }]);
    expect(resultsPath(SITE_ID)).toBe(`/api/site/${SITE_ID}/results`);
  });
});
