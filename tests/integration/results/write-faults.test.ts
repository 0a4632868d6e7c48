/**
 * What real DynamoDB does to the vote record's writes and DynamoDB Local never does, injected with an
 * SDK middleware inside the store's retry policy: throttling (ProvisionedThroughputExceeded,
 * ThrottlingException, a BatchWrite answered with unprocessed items), transactions cancelled by a
 * conflict, and the 400 KB item cap. Each write must end in a correct answer: the same state after
 * transient faults (no log entry lost or written twice), 503 with Retry-After when they outlast the
 * retries (nothing half-written that the next run cannot finish), and no item over 400 KB.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { MAX_ITEM_BYTES, itemBytes } from '#lib/store/db/storable';
import { sequenceSiteLog } from '#lib/jobs/sequence-log';
import { getBallot } from '#lib/store/ballots/ballots';
import { getLogHead, readAllLogEntries, readAllSignedCheckpoints } from '#lib/store/vote-log/log';
import { getReceiptIndex } from '#lib/store/vote-log/log';
import { computeSiteResults } from '#lib/results/compute';
import { getResultsHead, getResultsState } from '#lib/store/results/snapshots';
import { findSite } from '#lib/sites/site';
import { createUser } from '#tests/support/fixtures';
import { castVotes, createIdeas, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';
import { writeEntries } from '#tests/support/vote-log-fixtures';
import { atWallClock } from '#tests/support/wall-clock';

const FAULT = 'testWriteFault';
const SIZES = 'testItemSizes';
afterEach(() => {
  dynamo.middlewareStack.remove(FAULT);
  dynamo.middlewareStack.remove(SIZES);
});

const commandOf = (context: unknown) => String((context as { commandName?: string }).commandName ?? '');
const throttled = (i: number) =>
  i % 2 === 0
    ? Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded'), { name: 'ProvisionedThroughputExceededException' })
    : Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ThrottlingException' });
const conflict = (items: number) =>
  Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]'), {
    name: 'TransactionCanceledException',
    CancellationReasons: Array.from({ length: items }, (_, i) => (i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' })),
  });

/**
 * The next `times` requests of commands matching `command` fail as `fault` says; low priority puts it
 * inside the retry policy, where the service's refusals arrive. Returns how many are left.
 */
function inject(command: RegExp, times: number, fault: 'throttle' | 'conflict' | 'unprocessed'): () => number {
  let left = times;
  let n = 0;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (left > 0 && command.test(commandOf(context))) {
        left--;
        n++;
        if (fault === 'throttle') throw throttled(n);
        const input = args.input as { TransactItems?: unknown[]; RequestItems?: Record<string, unknown[]> };
        if (fault === 'conflict') throw conflict(input.TransactItems?.length ?? 1);
        // A BatchWrite the table took none of: every request comes back unprocessed.
        return { output: { UnprocessedItems: input.RequestItems, $metadata: {} }, response: {} } as never;
      }
      return next(args);
    },
    { step: 'initialize', name: FAULT, priority: 'low' },
  );
  return () => left;
}

/** Every item the code writes (Put, Update keys aside, TransactWrite Puts, BatchWrite Puts), with its size. */
function recordItemSizes(): { sizes: Array<{ sk: string; bytes: number }> } {
  const record = { sizes: [] as Array<{ sk: string; bytes: number }> };
  const add = (item: Record<string, unknown> | undefined) => item && record.sizes.push({ sk: String(item.SK), bytes: itemBytes(item) });
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Item?: Record<string, unknown>; TransactItems?: Array<{ Put?: { Item?: Record<string, unknown> } }>; RequestItems?: Record<string, Array<{ PutRequest?: { Item: Record<string, unknown> } }>> };
      const command = commandOf(context);
      if (command === 'PutItemCommand') add(input.Item);
      if (command === 'TransactWriteItemsCommand') for (const action of input.TransactItems ?? []) add(action.Put?.Item);
      if (command === 'BatchWriteItemCommand') for (const requests of Object.values(input.RequestItems ?? {})) for (const r of requests) add(r.PutRequest?.Item);
      return next(args);
    },
    // High: before marshalling, so the items are the plain values the code sent.
    { step: 'initialize', name: SIZES, priority: 'high' },
  );
  return record;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe('a vote round (its ballot, tallies and log entry in one transaction)', () => {
  it('throttled three times: retried, and exactly one log entry; throttled through the retries: 503 with Retry-After, no ballot, no entry', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const user = await createUser(site.id);
    const left = inject(/^TransactWriteItems/, 3, 'throttle');
    const voted = await castVotes(site.id, user.token, [{ ideaId: idea }]);
    expect(voted.status).toBe(200);
    expect(left()).toBe(0);
    expect((await readAllLogEntries(site.id)).map((e) => e.userId)).toEqual([user.id]);
    dynamo.middlewareStack.remove(FAULT);

    const other = await createUser(site.id);
    inject(/^TransactWriteItems/, 1000, 'throttle');
    const refused = await castVotes(site.id, other.token, [{ ideaId: idea }]);
    // 503 with Retry-After; 409 when the suite's own random faults (DYNAMO_FAULTS) made the last attempt a conflict.
    expect([503, 409]).toContain(refused.status);
    if (refused.status === 503) expect(refused.headers['retry-after']).toBe('1');
    dynamo.middlewareStack.remove(FAULT);
    expect(await getBallot(site.id, other.id)).toBeUndefined();
    expect((await readAllLogEntries(site.id)).map((e) => e.userId)).toEqual([user.id]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [idea]: { yes: 1 } });
  });

  it('cancelled by a conflict three times: one log entry, sealed once into the log; a ballot of 100 votes writes no item near 400 KB', async () => {
    const site = await votingSite({ voteType: 'count', maxIdeas: 100, withExisting: 'replace' });
    const ideas = await createIdeas(site.id, 100);
    const user = await createUser(site.id);
    const sizes = recordItemSizes();
    const left = inject(/^TransactWriteItems/, 3, 'conflict');
    const voted = await castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })));
    expect(voted.status).toBe(200);
    expect(left()).toBe(0);
    const entries = await readAllLogEntries(site.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.votes).toHaveLength(100);
    const entryItem = sizes.sizes.find((s) => s.sk.startsWith('VLOG#E#'));
    expect(entryItem!.bytes).toBeGreaterThan(0);
    expect(Math.max(...sizes.sizes.map((s) => s.bytes))).toBeLessThan(MAX_ITEM_BYTES / 10);
    dynamo.middlewareStack.remove(FAULT);
    const later = new Date(Date.now() + 120_000);
    expect(await atWallClock(later, () => sequenceSiteLog(site.id, later))).toMatchObject({ appended: 1, treeSize: 1 });
  });
});

describe('the sequencer', () => {
  it('tiles and receipts answered unprocessed, the publish throttled and cancelled, all transiently: the same checkpoint, every entry once, no item over 400 KB', async () => {
    const site = await votingSite();
    const entries = await writeEntries(site.id, Array.from({ length: 600 }, (_, i) => ({ userId: i + 1, ideaIds: [1 + (i % 7)], writtenAt: new Date(minutesAgo(30).getTime() + i * 100) })));
    const sizes = recordItemSizes();
    const unprocessed = inject(/^BatchWriteItem/, 3, 'unprocessed');
    // Five minutes ago: the later runs below (up to four minutes on) are never ahead of the wall clock.
    const start = Date.now() - 5 * 60_000;
    const at = (seconds: number) => new Date(start + seconds * 1000);
    const outcome = await sequenceSiteLog(site.id, at(0));
    expect(unprocessed()).toBe(0);
    dynamo.middlewareStack.remove(FAULT);
    expect(outcome).toMatchObject({ appended: 600, treeSize: 600, busy: false });
    // Tiles of 256 hashes, the checkpoint, receipt indexes: each far below the cap.
    expect(sizes.sizes.length).toBeGreaterThan(600);
    const largest = sizes.sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    expect(largest.bytes, largest.sk).toBeLessThan(16 * 1024);
    for (const entry of [entries[0]!, entries[300]!, entries[599]!]) expect(await getReceiptIndex(site.id, entry.mac)).toMatchObject({ checkpointId: 1 });

    // Later entries, each sequenced by a later run (its clock a settle minute past the entry).
    await writeEntries(site.id, [{ userId: 1, ideaIds: [2], writtenAt: at(1) }]);
    inject(/^TransactWriteItems/, 2, 'throttle');
    expect(await sequenceSiteLog(site.id, at(120))).toMatchObject({ appended: 1, treeSize: 601 });
    dynamo.middlewareStack.remove(FAULT);
    inject(/^TransactWriteItems/, 3, 'conflict');
    await writeEntries(site.id, [{ userId: 2, ideaIds: [3], writtenAt: at(90) }]);
    expect(await sequenceSiteLog(site.id, at(240))).toMatchObject({ appended: 1, treeSize: 602 });
    expect((await readAllSignedCheckpoints(site.id)).map((c) => c.treeSize)).toEqual([600, 601, 602]);
  });

  it('throttled through the retries: the run fails with 503 and publishes nothing, the lease is free, and the next run seals every entry once', async () => {
    const site = await votingSite();
    await writeEntries(site.id, Array.from({ length: 5 }, (_, i) => ({ userId: i + 1, ideaIds: [1], writtenAt: minutesAgo(10 - i) })));
    inject(/^TransactWriteItems/, 1000, 'throttle');
    // 503 (or 409 when the suite's random faults made the last attempt a conflict): a retryable refusal.
    await expect(sequenceSiteLog(site.id, new Date())).rejects.toMatchObject({ status: expect.toBeOneOf([503, 409]) });
    dynamo.middlewareStack.remove(FAULT);
    expect(await readAllSignedCheckpoints(site.id)).toEqual([]);
    expect(await getLogHead(site.id)).toMatchObject({ size: 0, checkpointId: 0 });
    expect(await sequenceSiteLog(site.id, new Date())).toMatchObject({ appended: 5, treeSize: 5, busy: false });
  });

  it('published, then its receipt index throttled through the retries: the next run indexes them before anything else', async () => {
    const site = await votingSite();
    const entries = await writeEntries(site.id, Array.from({ length: 30 }, (_, i) => ({ userId: i + 1, ideaIds: [1], writtenAt: minutesAgo(10) })));
    // The tiles' BatchWrite goes through; every one after it (the receipt index) is throttled.
    let batches = 0;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (commandOf(context).startsWith('BatchWriteItem') && ++batches > 1) throw throttled(batches);
        return next(args);
      },
      { step: 'initialize', name: FAULT, priority: 'low' },
    );
    await expect(sequenceSiteLog(site.id, new Date())).rejects.toMatchObject({ status: 503 });
    dynamo.middlewareStack.remove(FAULT);
    expect(await getLogHead(site.id)).toMatchObject({ size: 30, checkpointId: 1, indexing: [0, 30] });
    expect(await getReceiptIndex(site.id, entries[29]!.mac)).toBeUndefined();
    expect(await sequenceSiteLog(site.id, new Date(Date.now() + 1000))).toMatchObject({ appended: 0, treeSize: 30 });
    const indexed = await Promise.all(entries.map((entry) => getReceiptIndex(site.id, entry.mac)));
    expect(indexed.map((at) => at!.leafIndex).sort((a, b) => a - b)).toEqual(entries.map((_, i) => i));
    expect((await getLogHead(site.id))!.indexing).toBeUndefined();
  });
});

describe('a results snapshot', () => {
  it('throttled chunk writes and head put: retried to the same snapshot; through the retries: 503, the lease released, no head, the next computation writes it', async () => {
    const site = await votingSite({ voteType: 'likes', isViewable: true });
    const [idea] = await createIdeas(site.id, 1);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: idea }])).status).toBe(200);
    const stored = (await findSite(site.id))!;

    inject(/^PutItem/, 1000, 'throttle');
    await expect(computeSiteResults(stored, { deadline: new Date(Date.now() + 20_000) })).rejects.toMatchObject({ status: 503 });
    dynamo.middlewareStack.remove(FAULT);
    expect(await getResultsHead(site.id)).toBeUndefined();
    expect((await getResultsState(site.id))?.leaseOwner).toBeUndefined();

    const left = inject(/^PutItem/, 3, 'throttle');
    expect(await computeSiteResults(stored, { deadline: new Date(Date.now() + 20_000) })).toBe('done');
    expect(left()).toBe(0);
    expect(await getResultsHead(site.id)).toMatchObject({ ballots: 1 });
  });
});
