/**
 * What verify-votes makes of a stored results snapshot it cannot take at its word
 * (lib/results/verify-snapshot.ts `verifyResultsSnapshot`, the snapshot store as a double): a head
 * naming more chunks than a body can have, an item the store cannot read, a body without the fields
 * the check reads or with them in other types. Each is one problem, never an exception; any other
 * failure of the store is not the snapshot's and is thrown. And the counts held to the log for the
 * `no` opinion and at the edges of what the log allows (`checkSnapshotCounts`).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CorruptRecordError } from '#lib/errors';
import { packSnapshot } from '#lib/results/snapshot';
import type { ResultsHead } from '#lib/store/results/snapshots';
import type { SealedEntry } from '#lib/vote-record/entry';

const store = vi.hoisted(() => ({
  head: undefined as ResultsHead | undefined,
  chunks: undefined as Uint8Array[] | undefined,
  /** Thrown by the next read of the head, or of the body. */
  headFails: undefined as Error | undefined,
  bodyFails: undefined as Error | undefined,
  bodyReads: 0,
}));
vi.mock('#lib/store/results/snapshots', () => ({
  getResultsHead: vi.fn(async () => {
    if (store.headFails) throw store.headFails;
    return store.head;
  }),
  readResultsBody: vi.fn(async () => {
    store.bodyReads += 1;
    if (store.bodyFails) throw store.bodyFails;
    return store.chunks;
  }),
}));

const { checkSnapshotCounts, verifyResultsSnapshot } = await import('#lib/results/verify-snapshot');

const computedAt = '2026-01-01T10:01:00.000Z';
const coveredUntil = '2026-01-01T10:00:00.000Z';
const entry = (userId: number, version: number, writtenAt: string, votes: Array<[ideaId: number, opinion: string]>): SealedEntry => ({
  siteId: 1,
  userId,
  version,
  prevMac: '0'.repeat(64),
  votes: votes.map(([ideaId, opinion]) => ({ ideaId, opinion })),
  writtenAt,
  mac: `${userId}${version}`.padStart(64, '0'),
});
/** Two voters before the settle minute: idea 7 one yes and one no. */
const entries = [entry(1, 1, '2026-01-01T09:00:00.000Z', [[7, 'yes']]), entry(2, 1, '2026-01-01T09:30:00.000Z', [[7, 'no']])];
const idea = (id: number, yes: number, no: number) => ({ id, title: `idea ${id}`, yes, no, rank: 1 });
const goodBody = { computedAt, ballots: 2, ideas: [idea(7, 1, 1)] };
const headOf = (ballots: number, chunks = 1): ResultsHead => ({ siteId: 1, etag: '"e"', computedAt, coveredUntil, ballots, generation: 'g', chunks });
const MATCHES = { problems: [], notes: [`the results snapshot of ${computedAt} matches the log`] };
const LACKS = { problems: ['the results snapshot cannot be read: its body lacks the ballot count, the time or the counts of its ideas'], notes: [] };

/** Stores `body` as the results job would (packed), under a head with its ballot count. */
function storeBody(body: unknown, ballots = 2) {
  store.head = headOf(ballots);
  store.chunks = packSnapshot(body).chunks;
}

beforeEach(() => {
  store.headFails = undefined;
  store.bodyFails = undefined;
  store.bodyReads = 0;
  storeBody(goodBody);
});

describe('the head of the snapshot', () => {
  it('a head naming up to 1000 chunks is read; one naming more is a problem, its chunks never read', async () => {
    store.head = headOf(2, 1000);
    expect(await verifyResultsSnapshot(1, entries)).toEqual(MATCHES);
    expect(store.bodyReads).toBe(1);
    store.head = headOf(2, 1001);
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: ["the results snapshot's head names 1001 chunks, more than a body can have"], notes: [] });
    expect(store.bodyReads).toBe(1);
  });

  it('a head or a chunk the store cannot read is a problem naming the item', async () => {
    store.headFails = new CorruptRecordError('results head', 'SITE#1 RESULTS', { path: 'ballots', message: 'expected an integer' });
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: ['the results snapshot cannot be read: Stored results head SITE#1 RESULTS is malformed: ballots expected an integer'], notes: [] });
    store.headFails = undefined;
    store.bodyFails = new CorruptRecordError('results chunk', 'SITE#1 RESULTS#g#0', { path: '', message: 'lacks data' });
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: ['the results snapshot cannot be read: Stored results chunk SITE#1 RESULTS#g#0 is malformed: the item lacks data'], notes: [] });
  });

  it('any other failure of the store is thrown, not reported as the snapshot\'s', async () => {
    store.headFails = new Error('connection reset');
    await expect(verifyResultsSnapshot(1, entries)).rejects.toThrow('connection reset');
    store.headFails = undefined;
    store.bodyFails = new TypeError('socket hang up');
    await expect(verifyResultsSnapshot(1, entries)).rejects.toThrow('socket hang up');
  });
});

describe('the body of the snapshot', () => {
  it('with its counts for both opinions: checked', async () => {
    expect(await verifyResultsSnapshot(1, entries)).toEqual(MATCHES);
  });

  it.each([
    ['JSON null', null],
    ['a number', 5],
    ['a string', 'results'],
    ['no ballot count', { computedAt, ideas: goodBody.ideas }],
    ['a ballot count as text', { ...goodBody, ballots: '2' }],
    ['a fractional ballot count', { ...goodBody, ballots: 2.5 }],
    ['no time', { ballots: 2, ideas: goodBody.ideas }],
    ['a time as a number (one Date.parse would read as a year)', { ...goodBody, computedAt: 2026 }],
    ['a time that is no time', { ...goodBody, computedAt: 'yesterday' }],
    ['no ideas', { computedAt, ballots: 2 }],
    ['ideas that are no list', { ...goodBody, ideas: { 7: idea(7, 1, 1) } }],
    ['an idea that is null', { ...goodBody, ideas: [idea(7, 1, 1), null] }],
    ['an idea that is a number', { ...goodBody, ideas: [7] }],
    ['an idea without id', { ...goodBody, ideas: [{ yes: 1, no: 1 }] }],
    ['an idea without yes', { ...goodBody, ideas: [{ id: 7, no: 1 }] }],
    ['an idea without no', { ...goodBody, ideas: [{ id: 7, yes: 1 }] }],
    ['an idea whose id is text', { ...goodBody, ideas: [{ ...idea(7, 1, 1), id: '7' }] }],
    ['an idea whose yes is text', { ...goodBody, ideas: [{ ...idea(7, 1, 1), yes: '1' }] }],
    ['an idea whose no is fractional', { ...goodBody, ideas: [{ ...idea(7, 1, 1), no: 0.5 }] }],
  ])('%s: a problem, not an exception', async (_, body) => {
    storeBody(body);
    expect(await verifyResultsSnapshot(1, entries)).toEqual(LACKS);
  });

  it('no ideas at all is a body like any other: checked against the log', async () => {
    storeBody({ computedAt, ballots: 0, ideas: [] }, 0);
    expect(await verifyResultsSnapshot(1, [])).toEqual({ problems: [], notes: [`the results snapshot of ${computedAt} matches the log`] });
  });
});

describe("the snapshot's counts against the log", () => {
  const body = (ballots: number, ideas: ReturnType<typeof idea>[]) => ({ computedAt, ballots, ideas });

  it("a 'no' count is held to the log like a 'yes' one", () => {
    expect(checkSnapshotCounts(body(2, [idea(7, 1, 1)]), coveredUntil, entries)).toEqual(MATCHES);
    expect(checkSnapshotCounts(body(2, [idea(7, 1, 0)]), coveredUntil, entries).problems).toEqual([`the results snapshot of ${computedAt} differs from the log: idea 7 'no' is 0, the log gives 1`]);
    expect(checkSnapshotCounts(body(2, [idea(7, 1, 2)]), coveredUntil, entries).problems).toEqual([`the results snapshot of ${computedAt} differs from the log: idea 7 'no' is 2, the log gives 1`]);
  });

  it('an idea listed with no votes is the same as an idea not listed', () => {
    expect(checkSnapshotCounts(body(2, [idea(7, 1, 1), idea(8, 0, 0)]), coveredUntil, entries)).toEqual(MATCHES);
  });

  it('an entry written at the very instant of the computation is in it; one a millisecond later is not', () => {
    const atTheInstant = [...entries, entry(3, 1, computedAt, [[8, 'no']])];
    expect(checkSnapshotCounts(body(3, [idea(7, 1, 1), idea(8, 0, 1)]), coveredUntil, atTheInstant)).toEqual(MATCHES);
    const after = [...entries, entry(3, 1, '2026-01-01T10:01:00.001Z', [[8, 'no']])];
    expect(checkSnapshotCounts(body(2, [idea(7, 1, 1)]), coveredUntil, after)).toEqual(MATCHES);
  });

  it("each ballot counts at its latest version, whatever order the entries come in; a ballot emptied counts as none", () => {
    const versions = [entry(1, 3, '2026-01-01T09:50:00.000Z', [[7, 'no']]), entry(1, 1, '2026-01-01T09:00:00.000Z', [[7, 'yes']]), entry(1, 2, '2026-01-01T09:40:00.000Z', [[8, 'yes']])];
    expect(checkSnapshotCounts(body(1, [idea(7, 0, 1)]), coveredUntil, versions)).toEqual(MATCHES);
    const emptied = [...entries, entry(2, 2, '2026-01-01T09:45:00.000Z', [])];
    expect(checkSnapshotCounts(body(1, [idea(7, 1, 0)]), coveredUntil, emptied)).toEqual(MATCHES);
  });

  describe('with rounds still committing in the settle minute', () => {
    // User 2 changes its no on idea 7 into a yes on idea 8 within the settle minute; user 3 votes for the
    // first time at the very instant of the computation; user 4 after it (in no range).
    const settling = [
      ...entries,
      entry(2, 2, '2026-01-01T10:00:20.000Z', [[8, 'yes']]),
      entry(3, 1, computedAt, [[8, 'no']]),
      entry(4, 1, '2026-01-01T10:01:00.001Z', [[9, 'yes']]),
    ];
    const WITHIN = { problems: [], notes: [`the results snapshot of ${computedAt} is within what the log allows for the rounds still committing while it was computed`] };

    it('every count at either end of its range is within it (the rounds in, or out)', () => {
      expect(checkSnapshotCounts(body(3, [idea(7, 1, 0), idea(8, 1, 1)]), coveredUntil, settling)).toEqual(MATCHES);
      expect(checkSnapshotCounts(body(2, [idea(7, 1, 1)]), coveredUntil, settling)).toEqual(WITHIN);
      expect(checkSnapshotCounts(body(3, [idea(7, 1, 1), idea(8, 0, 1)]), coveredUntil, settling)).toEqual(WITHIN);
    });

    it('a count beyond either end is a problem naming the range', () => {
      expect(checkSnapshotCounts(body(4, [idea(7, 1, 2), idea(8, 2, 1)]), coveredUntil, settling).problems).toEqual([
        `the results snapshot of ${computedAt} differs from the log: its ballot count is 4, the log gives 2 to 3`,
        `the results snapshot of ${computedAt} differs from the log: idea 7 'no' is 2, the log gives 0 to 1`,
        `the results snapshot of ${computedAt} differs from the log: idea 8 'yes' is 2, the log gives 0 to 1`,
      ]);
      expect(checkSnapshotCounts(body(1, [idea(7, 0, 1)]), coveredUntil, settling).problems).toEqual([
        `the results snapshot of ${computedAt} differs from the log: its ballot count is 1, the log gives 2 to 3`,
        `the results snapshot of ${computedAt} differs from the log: idea 7 'yes' is 0, the log gives 1`,
      ]);
    });

    it('the version a ballot had settled at is its latest by version, whatever order the entries come in', () => {
      const outOfOrder = [entry(5, 2, '2026-01-01T09:50:00.000Z', [[9, 'no']]), entry(5, 1, '2026-01-01T09:10:00.000Z', [[9, 'yes']]), entry(6, 1, '2026-01-01T10:00:30.000Z', [[9, 'yes']])];
      expect(checkSnapshotCounts(body(1, [idea(9, 0, 1)]), coveredUntil, outOfOrder)).toEqual(WITHIN);
    });

    it('a round stamped at the very end of the covered time counts as settled', () => {
      const atTheEdge = [...entries, entry(2, 2, coveredUntil, [[8, 'yes']])];
      expect(checkSnapshotCounts(body(2, [idea(7, 1, 1)]), coveredUntil, atTheEdge).problems).toEqual([
        `the results snapshot of ${computedAt} differs from the log: idea 7 'no' is 1, the log gives 0`,
        `the results snapshot of ${computedAt} differs from the log: idea 8 'yes' is 0, the log gives 1`,
      ]);
    });
  });
});
