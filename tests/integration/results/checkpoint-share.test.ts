/**
 * One busy site cannot hold back the others' checkpoints: a run over every due site, with a deadline
 * that a flooding site alone would use up. The run's clock is the Lambda's remaining time, made here
 * from the DynamoDB requests the run has made (each one "costs" a second), so the deadline falls at
 * the same point on any machine. Its own table: a run over all due sites must not touch other tests'.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `checkpoint-share-${process.pid}-${Date.now()}`;
});

import { dynamo } from '#lib/store/db/client';
import { ensureTable } from '#lib/store/db/table';
import { run as checkpointRun } from '#lib/jobs/vote-checkpoints';
import { STOP_BEFORE_DEADLINE_MS } from '#lib/jobs/run';
import { syncJobMarkers } from '#lib/store/jobs/jobs';
import { getLogHead } from '#lib/store/vote-log/log';
import { getSite } from '#lib/store/sites/sites';
import { siteJobDues } from '#lib/sites/job-dues';
import { withDefaults } from '#lib/sites/config-defaults';
import { createSite } from '#tests/support/fixtures';
import { writeEntries, type EntrySpec } from '#tests/support/vote-log-fixtures';

let requests = 0;
beforeAll(async () => {
  await ensureTable();
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      requests += 1;
      return next(args);
    },
    { step: 'initialize', name: 'checkpointShareRequestClock', priority: 'high' },
  );
});
afterAll(() => {
  dynamo.middlewareStack.remove('checkpointShareRequestClock');
});

/** A deadline `budget` requests away: every request the run makes takes a second of it. */
function deadlineAfter(budget: number): () => number {
  const start = requests;
  return () => STOP_BEFORE_DEADLINE_MS + (budget - (requests - start)) * 1000;
}

async function dueSite(createdAt: Date): Promise<number> {
  const { id } = await createSite();
  const stored = (await getSite(id))!;
  await syncJobMarkers(id, siteJobDues(withDefaults(stored.config), createdAt.toISOString()), createdAt.toISOString());
  return id;
}

const rounds = (count: number, at: Date): EntrySpec[] => Array.from({ length: count }, (_, i) => ({ userId: i + 1, ideaIds: [1 + (i % 7)], writtenAt: new Date(at.getTime() + i) }));

describe('the checkpoint job under a flood on one site', () => {
  it('gives every site its checkpoint on schedule; the flooding site gets a share, the rest of the run, and goes on first at the next run', async () => {
    const now = new Date();
    const written = new Date(now.getTime() - 30 * 60_000);
    // The flooding site is due first (the oldest marker), as the busiest site of a city vote would be.
    const flood = await dueSite(new Date(now.getTime() - 10 * 60_000));
    const others = [await dueSite(new Date(now.getTime() - 9 * 60_000)), await dueSite(new Date(now.getTime() - 8 * 60_000)), await dueSite(new Date(now.getTime() - 7 * 60_000))];
    await writeEntries(flood, rounds(2_000, written));
    for (const site of others) await writeEntries(site, rounds(2, written));

    // Sequencing the whole flood in one checkpoint takes well over 80 requests (80 receipt index writes
    // alone); each other site's checkpoint about a dozen.
    const first = await checkpointRun({ now, share: 100, remainingMs: deadlineAfter(80) });
    for (const site of others) {
      const head = await getLogHead(site);
      expect(head, `site ${site}`).toMatchObject({ size: 2, checkpointId: 1 });
    }
    const flooded = (await getLogHead(flood))!;
    expect(flooded.size).toBeGreaterThanOrEqual(200);
    expect(flooded.size).toBeLessThan(2_000);
    expect(flooded.size % 100).toBe(0);
    expect(first.more).toBe(true);
    expect(first.sites.find((s) => s.siteId === flood)).toMatchObject({ nextDueAt: now.toISOString() });
    for (const site of others) expect(first.sites.find((s) => s.siteId === site)!.nextDueAt! > now.toISOString()).toBe(true);
    // The oldest entry no checkpoint covers is the flood's first left out: 30 minutes old.
    expect(first.gauges!.VoteCheckpointLagSeconds).toBeGreaterThanOrEqual(29 * 60);
    expect(first.gauges!.VoteCheckpointLagSeconds).toBeLessThan(31 * 60);

    // The next run takes the flooding site first and, unhurried, catches up; the others are not due yet.
    // At the wall clock: a run never cuts past a minute before it, so a clock ahead would only add lag.
    const second = await checkpointRun({ now: new Date(), share: 500 });
    expect((await getLogHead(flood))!.size).toBe(2_000);
    expect(second.sites.map((s) => s.siteId)).toEqual([flood]);
    expect(second.gauges!.VoteCheckpointLagSeconds).toBeLessThanOrEqual(60);
  });
});
