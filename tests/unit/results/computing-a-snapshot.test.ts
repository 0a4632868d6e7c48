/**
 * Computing a site's results snapshot (lib/results/compute.ts) with the store as a double: nothing is
 * read without the site's lease; an unfinished run stores its progress and goes on from it; a finished
 * one stores the snapshot, covering the log up to a settle time before the ballots were read, naming
 * the signed checkpoint only when the log held nothing past its cut, and replacing the head it read;
 * the lease is always released, also when the run fails.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unpackSnapshot } from '#lib/results/snapshot';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { computeResultsWithin } from '#lib/results/results';
import type { writeResultsSnapshot } from '#lib/store/results/snapshots';

type ResultsInput = Parameters<typeof computeResultsWithin>[0];
type SnapshotWrite = Parameters<typeof writeResultsSnapshot>[0];

const world = vi.hoisted(() => ({
  lease: true,
  state: undefined as { siteId: number; progress?: string } | undefined,
  head: undefined as { generation: string; chunks: number } | undefined,
  ideas: [] as unknown[],
  ballots: [] as Array<{ votes?: Record<string, { opinion: string }> }>,
  checkpoint: undefined as { id: number; treeSize: number; root: string; cut: string } | undefined,
  newest: undefined as string | undefined,
  step: undefined as unknown,
  fail: false,
  calls: [] as Array<{ input: ResultsInput; progress: unknown; stopNow: boolean }>,
  leases: [] as Array<{ siteId: number; owner: string; until: Date }>,
  releases: [] as Array<{ owner: string; outcome: unknown }>,
  writes: [] as Array<{ write: SnapshotWrite; now: Date }>,
  reads: 0,
  ballotReads: [] as unknown[][],
}));

vi.mock('#lib/store/results/snapshots', () => ({
  takeResultsLease: vi.fn(async (siteId: number, owner: string, _now: Date, until: Date) => {
    world.leases.push({ siteId, owner, until });
    return world.lease;
  }),
  getResultsState: vi.fn(async () => {
    world.reads++;
    return world.state;
  }),
  getResultsHead: vi.fn(async () => world.head),
  releaseResultsLease: vi.fn(async (_siteId: number, owner: string, outcome: unknown) => {
    world.releases.push({ owner, outcome });
  }),
  writeResultsSnapshot: vi.fn(async (write: SnapshotWrite, now: Date) => {
    world.writes.push({ write, now });
    return true;
  }),
}));
vi.mock('#lib/store/ballots/site-ranges', () => ({
  readSiteIdeas: vi.fn(async () => world.ideas),
  readSiteBallots: vi.fn(async (...args: unknown[]) => {
    world.ballotReads.push(args);
    return world.ballots;
  }),
}));
vi.mock('#lib/store/vote-log/log', () => ({
  latestSignedCheckpoint: vi.fn(async () => world.checkpoint),
  newestLogEntryAt: vi.fn(async () => world.newest),
  // Entries in the settle window before the read: what the snapshot counts as held (see `settling`).
  countLogEntriesAfter: vi.fn(async () => 2),
}));
vi.mock('#lib/results/results', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#lib/results/results')>()),
  computeResultsWithin: vi.fn((input: ResultsInput, options: { stop: () => boolean; progress?: unknown }) => {
    if (world.fail) throw new Error('boom');
    world.calls.push({ input, progress: options.progress, stopNow: options.stop() });
    // Like the real one, the results carry the read time they were given.
    const step = world.step as { kind: string; results?: object };
    return step.results ? { ...step, results: { ...step.results, computedAt: input.computedAt } } : step;
  }),
}));

const { budgetOf, computeSiteResults, resultsIdeaOf, SETTLE_MS, themeOf } = await import('#lib/results/compute');

const SITE: Site = { id: 3, name: 's', config: withDefaults({}) } as unknown as Site;
const NOW = new Date('2026-05-01T10:00:00.000Z');
const RESULTS = { voteType: 'likes', ballots: 2, ideas: [] };
const later = (ms: number) => new Date(Date.now() + ms);

beforeEach(() => {
  Object.assign(world, {
    lease: true,
    state: undefined,
    head: undefined,
    ideas: [{ id: 1, title: 'Bench', budget: 500, extraData: { theme: 'green' } }, { id: 2, title: 'Tree', extraData: { theme: 7 } }],
    ballots: [{ votes: { 2: { opinion: 'yes' }, 1: { opinion: 'no' } } }, { votes: {} }, {}],
    checkpoint: undefined,
    newest: undefined,
    step: { kind: 'done', results: RESULTS },
    fail: false,
    calls: [],
    leases: [],
    releases: [],
    writes: [],
    reads: 0,
    ballotReads: [],
  });
});

describe('computing a results snapshot', () => {
  it('reads nothing and writes nothing when another computation holds the lease', async () => {
    world.lease = false;
    expect(await computeSiteResults(SITE, { deadline: later(1000), now: NOW })).toBe('busy');
    expect(world.reads).toBe(0);
    expect(world.calls).toEqual([]);
    expect(world.releases).toEqual([]);
  });

  it('asked to compute unless someone did after an instant: a snapshot computed later is left as it is, an older one or none is computed again', async () => {
    const asked = new Date('2026-05-01T09:00:00.000Z');
    world.head = { generation: 'g', chunks: 1, computedAt: '2026-05-01T09:00:00.001Z' } as never;
    expect(await computeSiteResults(SITE, { deadline: later(1000), now: NOW, unlessComputedAfter: asked })).toBe('done');
    expect(world.calls).toEqual([]);
    expect(world.releases).toEqual([{ owner: world.leases[0]!.owner, outcome: { unchanged: true } }]);
    world.head = { generation: 'g', chunks: 1, computedAt: '2026-05-01T09:00:00.000Z' } as never;
    await computeSiteResults(SITE, { deadline: later(1000), now: NOW, unlessComputedAfter: asked });
    expect(world.calls).toHaveLength(1);
    world.head = undefined;
    await computeSiteResults(SITE, { deadline: later(1000), now: NOW, unlessComputedAfter: asked });
    expect(world.calls).toHaveLength(2);
  });

  it('holds the lease from the deadline on for the lease time (a minute unless told)', async () => {
    const deadline = later(5000);
    await computeSiteResults(SITE, { deadline, now: NOW });
    await computeSiteResults(SITE, { deadline, now: NOW, leaseMs: 10 });
    expect(world.leases.map((l) => l.until.getTime() - deadline.getTime())).toEqual([60_000, 10]);
    const past = new Date(Date.now() - 60_000);
    const before = Date.now();
    await computeSiteResults(SITE, { deadline: past, now: NOW, leaseMs: 10 });
    expect(world.leases[2]!.until.getTime()).toBeGreaterThanOrEqual(before + 10);
  });

  it('counts the ideas and the ballots that hold a vote, and stops at the deadline', async () => {
    await computeSiteResults(SITE, { deadline: later(60_000), now: NOW });
    const { input, stopNow } = world.calls[0]!;
    expect(stopNow).toBe(false);
    expect(input.config).toBe(SITE.config.votes);
    expect(input.ideas).toEqual([
      { id: 1, title: 'Bench', budget: 500, theme: 'green' },
      { id: 2, title: 'Tree', budget: null, theme: null },
    ]);
    expect(input.ballots).toEqual([{ votes: [{ ideaId: 1, opinion: 'no' }, { ideaId: 2, opinion: 'yes' }] }]);
    await computeSiteResults(SITE, { deadline: new Date(Date.now() - 1), now: NOW });
    expect(world.calls[1]!.stopNow).toBe(true);
  });

  it('reads the ballots as they count for the results (their votes, not the whole items), consistently', async () => {
    await computeSiteResults(SITE, { deadline: later(60_000), now: NOW });
    expect(world.ballotReads).toEqual([[3, 'votes', true]]);
  });

  it('stops from the deadline instant on: at the deadline it stops, a millisecond before it goes on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-05-01T10:00:00.000Z'));
      await computeSiteResults(SITE, { deadline: new Date('2026-05-01T10:00:00.000Z'), now: NOW });
      await computeSiteResults(SITE, { deadline: new Date('2026-05-01T10:00:00.001Z'), now: NOW });
    } finally {
      vi.useRealTimers();
    }
    expect(world.calls.map((call) => call.stopNow)).toEqual([true, false]);
  });

  it('stores the progress of an unfinished run, and goes on from stored progress (unreadable progress: afresh)', async () => {
    world.step = { kind: 'progress', progress: { fingerprint: 'f', searches: { site: { k: 1 } } } };
    expect(await computeSiteResults(SITE, { deadline: later(0), now: NOW })).toBe('unfinished');
    expect(world.writes).toEqual([]);
    expect(world.releases).toEqual([{ owner: world.leases[0]!.owner, outcome: { progress: '{"fingerprint":"f","searches":{"site":{"k":1}}}' } }]);
    world.state = { siteId: 3, progress: '{"fingerprint":"f","searches":{}}' };
    await computeSiteResults(SITE, { deadline: later(0), now: NOW });
    expect(world.calls[1]!.progress).toEqual({ fingerprint: 'f', searches: {} });
    world.state = { siteId: 3, progress: '{not json' };
    await computeSiteResults(SITE, { deadline: later(0), now: NOW });
    expect(world.calls[2]!.progress).toBeUndefined();
  });

  it('stores a finished snapshot covering the log up to a settle time before the read, and releases the lease from there', async () => {
    world.head = { generation: 'old', chunks: 2 };
    const before = Date.now();
    expect(await computeSiteResults(SITE, { deadline: later(60_000), now: NOW })).toBe('done');
    const after = Date.now();
    const { write, now } = world.writes[0]!;
    expect(now).toBe(NOW);
    const readAt = Date.parse(world.calls[0]!.input.computedAt);
    expect(readAt).toBeGreaterThanOrEqual(before);
    expect(readAt).toBeLessThanOrEqual(after);
    expect(write.head).toMatchObject({ siteId: 3, computedAt: world.calls[0]!.input.computedAt, coveredUntil: new Date(readAt - SETTLE_MS).toISOString(), settling: 2, ballots: 2 });
    expect(write.head.generation).toMatch(/^[\w-]{8}$/);
    expect(write.replaces).toEqual({ generation: 'old', chunks: 2 });
    expect(unpackSnapshot(write.chunks)).toEqual({ ...RESULTS, computedAt: write.head.computedAt, checkpoint: null });
    expect(world.releases).toEqual([{ owner: world.leases[0]!.owner, outcome: { coveredFrom: write.head.coveredUntil } }]);
  });

  it('replaces nothing when there was no snapshot', async () => {
    await computeSiteResults(SITE, { deadline: later(60_000), now: NOW });
    expect(world.writes[0]!.write.replaces).toBeNull();
  });

  it('names the signed checkpoint only when the log held no entry past its cut', async () => {
    const checkpoint = { id: 4, treeSize: 9, root: 'ab'.repeat(32), cut: '2026-05-01T09:00:00.000Z' };
    const named = { id: 4, treeSize: 9, root: 'ab'.repeat(32) };
    const cases: Array<[string | undefined, unknown]> = [
      [undefined, named],
      ['2026-05-01T08:59:59.999Z', named],
      ['2026-05-01T09:00:00.000Z', named],
      ['2026-05-01T09:00:00.001Z', null],
    ];
    for (const [newest, expected] of cases) {
      world.writes = [];
      world.checkpoint = checkpoint;
      world.newest = newest;
      await computeSiteResults(SITE, { deadline: later(60_000), now: NOW });
      expect((unpackSnapshot(world.writes[0]!.write.chunks) as { checkpoint: unknown }).checkpoint, String(newest)).toEqual(expected);
    }
  });

  it('releases the lease as failed when the run throws, and the error still surfaces', async () => {
    world.fail = true;
    await expect(computeSiteResults(SITE, { deadline: later(60_000), now: NOW })).rejects.toThrow('boom');
    expect(world.releases).toEqual([{ owner: world.leases[0]!.owner, outcome: { unchanged: true } }]);
  });
});

describe('an idea in the results', () => {
  it('has a theme only when its extra data names one as text, and a budget only when it is a number', () => {
    expect(themeOf({ extraData: { theme: 'green' } })).toBe('green');
    expect(themeOf({ extraData: { theme: 3 } })).toBeNull();
    expect(themeOf({})).toBeNull();
    expect(budgetOf({ budget: 0 })).toBe(0);
    expect(budgetOf({})).toBeNull();
    expect(resultsIdeaOf({ id: 5, title: 'T', budget: 10, extraData: { theme: 'x' } } as never)).toEqual({ id: 5, title: 'T', budget: 10, theme: 'x' });
  });
});
