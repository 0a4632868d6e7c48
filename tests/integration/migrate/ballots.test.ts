/**
 * `npm run migrate` on ballots as the code before the vote record stored them (no `hash`, `prevHash`,
 * `prevUpdatedAt`): verify-votes reports them until the migration seals each one as the first link of
 * its chain; tallies are untouched, and a second run changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { readAllLogEntries, voteLogKeys } from '#lib/store/vote-log/log';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { migrate } from '#lib/migrate/run';
import { sequenceSiteLog } from '#lib/jobs/sequence-log';
import { verifySiteVotes } from '#lib/results/verify';
import { createUser } from '#tests/support/fixtures';
import { atWallClock } from '#tests/support/wall-clock';
import { invoke } from '#tests/support/invoke';
import { allBallots, castVotes, storedTallies, votingSite } from '#tests/support/vote-fixtures';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import type { IdeaRecord } from '#schemas/idea';

describe('migrate: ballots without a hash chain', () => {
  it('seals every old ballot so verify-votes agrees, changes no tally, and a rerun changes nothing', async () => {
    const site = await votingSite({ voteType: 'likes' });
    // Ideas as the API writes them (the bare fixture items carry no `version`, which real ideas always have).
    const author = await createUser(site.id);
    const ideas: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: { title: `A park by the river ${i}`, summary: 'Green space for everyone nearby', description: 'A long description. '.repeat(10) }, token: author.token });
      expect(res.status).toBe(201);
      ideas.push(res.body.id);
    }
    for (const ideaId of [ideas[0]!, ideas[0]!, ideas[1]!]) {
      const voter = await createUser(site.id);
      expect((await castVotes(site.id, voter.token, [{ ideaId, opinion: 'yes' }])).status).toBe(200);
    }
    const ballots = await allBallots(site.id);
    expect(ballots).toHaveLength(3);
    for (const ballot of ballots) {
      await doc.send(new UpdateCommand({ TableName: TABLE, Key: ballotKeys.ballot(site.id, ballot.userId), UpdateExpression: 'REMOVE #h, prevHash, prevUpdatedAt', ExpressionAttributeNames: { '#h': 'hash' } }));
    }
    // ... and no vote log.
    for (const entry of await readAllLogEntries(site.id)) await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.entry(site.id, entry.writtenAt, entry.mac) }));
    const tallies = await storedTallies(site.id);
    expect((await verifySiteVotes(site.id)).checkpoint).toContain('3 ballot(s) from before the vote log');

    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report).toMatchObject({ siteId: site.id, ballots: 3, skipped: 0 });
    const after = await verifySiteVotes(site.id);
    expect(after.problems).toEqual([]);
    expect(after.checkpoint).not.toContain('from before the vote log');
    // Each ballot's chain in the log begins with the state the migration found.
    expect((await readAllLogEntries(site.id)).map((e) => [e.version, e.prevMac])).toEqual(ballots.map(() => [1, '0'.repeat(64)]));
    expect(await storedTallies(site.id)).toEqual(tallies);

    const [again] = await migrate({ siteId: site.id, dryRun: false });
    expect(again).toMatchObject({ ballots: 0, ideas: 0, users: 0 });
  });

  it('a migrated ballot past version 1 counts as one ballot in the signed checkpoint, and verify-votes agrees', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const author = await createUser(site.id);
    const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: { title: 'A park by the river', summary: 'Green space for everyone nearby', description: 'A long description. '.repeat(10) }, token: author.token });
    expect(res.status).toBe(201);
    const voter = await createUser(site.id);
    // Three versions of one ballot, then the ballot as the code before the vote record left it.
    for (const opinion of ['yes', 'no', 'yes']) expect((await castVotes(site.id, voter.token, [{ ideaId: res.body.id, opinion }])).status).toBe(200);
    const [ballot] = await allBallots(site.id);
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ballotKeys.ballot(site.id, ballot!.userId), UpdateExpression: 'REMOVE #h, prevHash, prevUpdatedAt', ExpressionAttributeNames: { '#h': 'hash' } }));
    for (const entry of await readAllLogEntries(site.id)) await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.entry(site.id, entry.writtenAt, entry.mac) }));

    await migrate({ siteId: site.id, dryRun: false });
    const sealed = await readAllLogEntries(site.id);
    expect(sealed.map((e) => [e.version, e.prevMac])).toEqual([[3, '0'.repeat(64)]]);
    const later = new Date(Date.now() + 120_000);
    expect(await atWallClock(later, () => sequenceSiteLog(site.id, later))).toMatchObject({ appended: 1, treeSize: 1 });
    const report = await verifySiteVotes(site.id, later);
    expect(report.problems).toEqual([]);
    expect(report.checkpoint).toContain('1 entries of 1 ballot(s)');
  });
});
