/**
 * The checkpoint job against a writer who edits the log head to stall a site's record (docs/results.md
 * "The vote record", threat model): a lease that never runs out, a cut far ahead. The job takes over
 * such a lease and repairs such a cut; a site it still cannot sequence feeds the lag alarm; and
 * verify-votes reports an entry no checkpoint holds past the alarm's limit. Each test is the attack,
 * then what must come out.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { readAllLogEntries, readAllSignedCheckpoints, voteLogKeys } from '#lib/store/vote-log/log';
import { CHECKPOINT_LAG_LIMIT_SECONDS } from '#lib/vote-record/schedule';
import { createUser } from '#tests/support/fixtures';
import { castVotes } from '#tests/support/vote-fixtures';
import { atWallClock } from '#tests/support/wall-clock';
import { addToTally, checkpointLater, minutesLater, overwriteAttributes, votedSite } from '#tests/support/ballot-tampering';
import { verifyCommand } from '../../../scripts/verify-votes.ts';

const verifyAt = (siteId: number, minutes: number) => atWallClock(minutesLater(minutes), () => verifyCommand(siteId));
const DAY = 24 * 60;

/** A voted site with one checkpoint, the log head edited by the writer, then one more voter (the victim). */
async function stalledSite(head: Record<string, unknown>) {
  const { site, ideas } = await votedSite();
  await checkpointLater(site.id);
  await overwriteAttributes(voteLogKeys.head(site.id), head);
  const victim = await createUser(site.id);
  expect((await castVotes(site.id, victim.token, [{ ideaId: ideas[1] }])).status).toBe(200);
  return { site, ideas, victim };
}

/** The writer removes the victim's vote: its entry, its ballot, and the tally along. */
async function removeVote(siteId: number, ideaId: number, userId: number) {
  const entry = (await readAllLogEntries(siteId)).find((e) => e.userId === userId)!;
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.entry(siteId, entry.writtenAt, entry.mac) }));
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: ballotKeys.ballot(siteId, userId) }));
  await addToTally(siteId, ideaId, -1);
}

describe('the checkpoint job against a stalled log head', () => {
  it.each([
    ['ends far ahead', '9999-12-31T00:00:00.000Z'],
    ['is no instant', 'zzzz'],
    ['is no text', 1],
  ])('a lease that %s is taken over: the next run signs the vote cast since, and its removal is reported', async (_, leaseUntil) => {
    const { site, ideas, victim } = await stalledSite({ leaseOwner: 'writer', leaseUntil });
    const run = await checkpointLater(site.id, 10);
    expect(run.sites[0]!.failed).toEqual([]);
    expect((await readAllSignedCheckpoints(site.id)).map((cp) => cp.id)).toEqual([1, 2]);
    await removeVote(site.id, ideas[1], victim.id);
    const after = await verifyAt(site.id, DAY + 5);
    expect(after.code, after.output).toBe(1);
    expect(after.output).toMatch(/has no entry: a deleted entry/);
  });

  it('a head cut set far ahead is repaired from the signed checkpoint and reported: the vote cast since is signed', async () => {
    const { site, ideas, victim } = await stalledSite({ cut: '9999-12-31T00:00:00.000Z' });
    const run = await checkpointLater(site.id, 10);
    expect(run.sites[0]!.failed.join('\n')).toMatch(/the log head's cut "9999-12-31T00:00:00.000Z" is not checkpoint 1's/);
    expect(run.gauges!.VoteCheckpointLagSeconds).toBeLessThanOrEqual(60);
    expect((await readAllSignedCheckpoints(site.id)).map((cp) => cp.id)).toEqual([1, 2]);
    await removeVote(site.id, ideas[1], victim.id);
    const after = await verifyAt(site.id, DAY + 5);
    expect(after.code, after.output).toBe(1);
  });

  it('a head cut that no signed checkpoint backs: no checkpoint, reported, and the lag counts from the latest signed cut', async () => {
    const { site } = await stalledSite({ cut: '9999-12-31T00:00:00.000Z', checkpointId: 7 });
    const run = await checkpointLater(site.id, 70);
    expect(run.sites[0]!.failed.join('\n')).toMatch(/no checkpoint: .*VLOG#HEAD/);
    expect(run.gauges!.VoteCheckpointLagSeconds).toBeGreaterThan(CHECKPOINT_LAG_LIMIT_SECONDS);
  });

  it('a head cut moved back behind its checkpoint signs nothing (no entry sequenced twice): reported, and the lag counts', async () => {
    const { site } = await votedSite();
    await checkpointLater(site.id);
    await overwriteAttributes(voteLogKeys.head(site.id), { cut: '2000-01-01T00:00:00.000Z' });
    const run = await checkpointLater(site.id, 70);
    expect(run.sites[0]!.failed.join('\n')).toMatch(/no checkpoint: .*is not the cut of checkpoint 1/);
    expect(run.gauges!.VoteCheckpointLagSeconds).toBeGreaterThan(CHECKPOINT_LAG_LIMIT_SECONDS);
    expect((await readAllSignedCheckpoints(site.id)).map((cp) => cp.id)).toEqual([1]);
  });

  it('a site another run holds counts in the lag from its latest signed cut', async () => {
    const { site } = await stalledSite({ leaseOwner: 'other run', leaseUntil: minutesLater(72).toISOString() });
    const run = await checkpointLater(site.id, 70);
    expect(run.gauges!.VoteCheckpointLagSeconds).toBeGreaterThan(CHECKPOINT_LAG_LIMIT_SECONDS);
  });

  it('verify-votes: an entry in no checkpoint is a note within the lag limit and a problem past it', async () => {
    const { site } = await votedSite();
    const within = await verifyAt(site.id, CHECKPOINT_LAG_LIMIT_SECONDS / 60 - 5);
    expect(within.code, within.output).toBe(0);
    expect(within.output).toMatch(/not in the log yet/);
    const past = await verifyAt(site.id, CHECKPOINT_LAG_LIMIT_SECONDS / 60 + 5);
    expect(past.code, past.output).toBe(1);
    expect(past.output).toMatch(/is in no checkpoint 65 minutes on: the checkpoints are stalled/);
  });
});
