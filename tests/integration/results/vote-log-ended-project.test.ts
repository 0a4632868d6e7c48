/**
 * On a site whose project has ended the vote-checkpoints job rests once a run found nothing new (its
 * marker goes off the index). A vote-log entry written after that, outside a vote round (a moderator's
 * review, an anonymization), must bring the job back by itself: the next scheduled run signs it and
 * verify-votes finds nothing stalled. Scheduled runs see every due site, so this file has a table of
 * its own (no other file's sites in them).
 */
import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `vote-log-ended-${process.pid}-${Date.now()}`;
});

import { ensureTable } from '#lib/store/db/table';
import { run as checkpointRun } from '#lib/jobs/vote-checkpoints';
import { getJobMarker } from '#lib/store/jobs/jobs';
import { readAllLogEntries, readAllSignedCheckpoints } from '#lib/store/vote-log/log';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdeas, votingSite } from '#tests/support/vote-fixtures';
import { minutesLater } from '#tests/support/ballot-tampering';
import { atWallClock } from '#tests/support/wall-clock';
import { verifyCommand } from '../../../scripts/verify-votes.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { handler as reviewHandler } from '../../../functions/votes/review.ts';
import { handler as anonymizeHandler } from '../../../functions/users/do-anonymize.ts';
import type { VoteRecord } from '#schemas/votes';

/** A scheduled run `minutes` from now: every due site of the table, the wall clock moved along. */
const scheduledRun = (minutes: number) => {
  const at = minutesLater(minutes);
  return atWallClock(at, () => checkpointRun({ now: at }));
};

/** A voted site, its rounds checkpointed, then its project ended by a site update (which makes the job due). */
async function endedVotedSite() {
  await ensureTable();
  // Votes stay active after the end, so an anonymization takes the voter's votes out (a log entry).
  const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
  const ideas = await createIdeas(site.id, 2);
  const voters = [await createUser(site.id), await createUser(site.id)];
  const cast: VoteRecord[][] = [];
  for (const voter of voters) {
    const answer = await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
    expect(answer.status).toBe(200);
    cast.push(answer.body);
  }
  // The fixture's site has no job markers yet: the first run is the `--site` one, which writes them.
  const first = minutesLater(1);
  expect((await atWallClock(first, () => checkpointRun({ now: first, siteId: site.id }))).sites.map((s) => s.siteId)).toEqual([site.id]);
  const ended = await invoke(updateSite, {
    method: 'PUT',
    params: { siteId: site.id },
    token: SERVICE_TOKEN,
    body: { config: { votes: { isActive: true, voteType: 'count', withExisting: 'replace', maxIdeas: 10 }, project: { projectHasEnded: true } } },
  });
  expect(ended.status).toBe(200);
  return { site, voters, cast };
}

const reviewAt = (minutes: number, siteId: number, voteId: number) =>
  atWallClock(minutesLater(minutes), () =>
    invoke<VoteRecord>(reviewHandler, { method: 'PUT', path: '/api/site/{siteId}/vote/{voteId}', params: { siteId, voteId }, body: { rejected: true }, token: SERVICE_TOKEN }),
  );

/** The next hour's scheduled run signs every entry, and verify-votes past the lag limit finds nothing. */
async function expectSignedInTheNextHour(siteId: number, entries: number) {
  expect(await readAllLogEntries(siteId)).toHaveLength(entries);
  const nextHour = await scheduledRun(63);
  expect(nextHour.sites.map((s) => s.siteId)).toEqual([siteId]);
  expect((await readAllSignedCheckpoints(siteId)).at(-1)?.treeSize).toBe(entries);
  const verified = await atWallClock(minutesLater(70), () => verifyCommand(siteId));
  expect(verified.code, verified.output).toBe(0);
}

describe("an ended project's late vote-log entries", () => {
  it('a review and an anonymization after the job rested make it due: the next hour signs their entries, verify-votes finds nothing', async () => {
    const { site, voters, cast } = await endedVotedSite();
    // The site update made the job due; that run finds nothing new on an ended project: the job rests.
    const resting = await scheduledRun(2);
    expect(resting.sites).toEqual([expect.objectContaining({ siteId: site.id, nextDueAt: null })]);
    expect((await getJobMarker(site.id, 'vote-checkpoints'))?.dueAt).toBeNull();

    expect((await reviewAt(3, site.id, cast[0]![0]!.id)).status).toBe(200);
    const anonymized = await atWallClock(minutesLater(3), () =>
      invoke(anonymizeHandler, { method: 'PUT', path: '/api/site/{siteId}/user/{userId}/do-anonymize', params: { siteId: site.id, userId: voters[1]!.id }, token: voters[1]!.token }),
    );
    expect(anonymized.status).toBe(200);
    await expectSignedInTheNextHour(site.id, 4);
  });

  it('an entry written within the settle minute before the run that rests (after its cut) keeps the job due', async () => {
    const { site, cast } = await endedVotedSite();
    // The marker is due from the site update, so the review's own "due by" leaves it as it is.
    expect((await reviewAt(1.5, site.id, cast[0]![0]!.id)).status).toBe(200);
    const run = await scheduledRun(2);
    expect(run.sites).toEqual([expect.objectContaining({ siteId: site.id, nextDueAt: expect.any(String) })]);
    expect((await getJobMarker(site.id, 'vote-checkpoints'))?.dueAt).not.toBeNull();
    await expectSignedInTheNextHour(site.id, 3);
  });
});
