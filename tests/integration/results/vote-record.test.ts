/**
 * The verifiable vote record: every committed state of a ballot carries its chain
 * hash, written in the round's own transaction; the `vote-checkpoints` job publishes a Merkle root
 * when the ballots changed (idempotent); moderators list the checkpoints; verify-votes agrees with an
 * untouched site and catches a tally and a ballot edited in DynamoDB behind the API's back.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runJob } from '#lib/jobs/index';
import { ballotStateHash, GENESIS } from '#lib/crypto/merkle';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { ballotLeafKey, hashedVotes } from '#lib/votes/seal';
import { verifySiteVotes } from '#lib/votes/verify';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { allBallots, castVotes, createIdeas, deleteIdea, votingSite } from '#tests/support/vote-fixtures';
import { parseVerifyCommand, verifyCommand } from '../../../scripts/verify-votes.ts';
import { handler as listHandler } from '../../../functions/results/checkpoints.ts';
import { handler as anonymizeHandler } from '../../../functions/users/do-anonymize.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { CheckpointRecord } from '#schemas/results';

/** The job's clock a few minutes ahead: checkpoints pin the ballots a minute before their run. */
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const checkpoint = (siteId: number, minutes = 5) => runJob('vote-checkpoints', { now: later(minutes), siteId });
const listCheckpoints = (siteId: number, token?: string) =>
  invoke<ListEnvelope<CheckpointRecord>>(listHandler, { method: 'GET', path: '/api/site/{siteId}/vote-checkpoint', params: { siteId }, ...(token ? { token } : {}) });

async function votedSite() {
  const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
  const ideas = await createIdeas(site.id, 3);
  const users = await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)]);
  for (const [i, user] of users.entries()) {
    expect((await castVotes(site.id, user.token, ideas.slice(0, i + 1).map((ideaId) => ({ ideaId })))).status).toBe(200);
  }
  return { site, ideas, users };
}

describe('ballot chains', () => {
  it('each round seals the new state on the ballot: version, the previous hash and its own', async () => {
    const { site, ideas, users } = await votedSite();
    const before = (await allBallots(site.id)).find((b) => b.userId === users[0]!.id)!;
    expect(before).toMatchObject({ version: 1, prevHash: GENESIS });
    expect(before.hash).toBe(ballotStateHash({ key: ballotLeafKey(before.userId), version: 1, previousHash: GENESIS, votes: hashedVotes(before.votes) }));

    expect((await castVotes(site.id, users[0]!.token, [{ ideaId: ideas[2] }])).status).toBe(200);
    const after = (await allBallots(site.id)).find((b) => b.userId === users[0]!.id)!;
    expect(after).toMatchObject({ version: 2, prevHash: before.hash, prevUpdatedAt: before.updatedAt });
    expect(after.hash).toBe(ballotStateHash({ key: ballotLeafKey(after.userId), version: 2, previousHash: before.hash!, votes: hashedVotes(after.votes) }));
  });

  it('deleting a voted idea re-seals every ballot it leaves', async () => {
    const { site, ideas } = await votedSite();
    await deleteIdea(site.id, ideas[0]);
    expect((await verifySiteVotes(site.id)).problems).toEqual([]);
    for (const ballot of await allBallots(site.id)) expect(ballot.version).toBe(2);
  });

  it('anonymizing a voter while voting is open empties the ballot as a new sealed state', async () => {
    const { site, users } = await votedSite();
    const user = users[2]!;
    const answer = await invoke(anonymizeHandler, {
      method: 'PUT',
      path: '/api/site/{siteId}/user/{userId}/do-anonymize',
      params: { siteId: site.id, userId: user.id },
      token: user.token,
    });
    expect(answer.status).toBe(200);
    const ballot = (await allBallots(site.id)).find((b) => b.userId === user.id)!;
    expect(ballot).toMatchObject({ version: 2, votes: {} });
    expect((await verifySiteVotes(site.id)).problems).toEqual([]);
  });
});

describe('checkpoints', () => {
  it('the job publishes a root over the ballots once; a rerun with nothing changed writes nothing', async () => {
    const { site, ideas, users } = await votedSite();
    const first = await checkpoint(site.id);
    expect(first.sites[0]!.done).toHaveLength(1);
    expect((await checkpoint(site.id, 6)).sites[0]!.done).toEqual([]);

    const moderator = await createUser(site.id, 'moderator');
    const listed = await listCheckpoints(site.id, moderator.token);
    expect(listed.status).toBe(200);
    expect(listed.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
    expect(listed.body.records).toEqual([{ id: expect.any(Number), siteId: site.id, root: expect.stringMatching(/^[0-9a-f]{64}$/), ballots: 3, createdAt: expect.any(String) }]);

    // A new round: the next run publishes a second checkpoint; the first stays.
    expect((await castVotes(site.id, users[0]!.token, [{ ideaId: ideas[1] }])).status).toBe(200);
    expect((await checkpoint(site.id, 7)).sites[0]!.done).toHaveLength(1);
    const both = await listCheckpoints(site.id, SERVICE_TOKEN);
    expect(both.body.records).toHaveLength(2);
    expect(both.body.records[0]!.root).toBe(listed.body.records[0]!.root);
    expect(both.body.records[1]!.root).not.toBe(listed.body.records[0]!.root);
  });

  it('two overlapping runs publish one checkpoint', async () => {
    const { site } = await votedSite();
    const runs = await Promise.all([checkpoint(site.id), checkpoint(site.id)]);
    expect(runs.flatMap((r) => r.sites.flatMap((s) => s.done))).toHaveLength(1);
    expect((await listCheckpoints(site.id, SERVICE_TOKEN)).body.records).toHaveLength(1);
  });

  it('an ended site whose checkpoint is current goes off the schedule', async () => {
    const site = await votingSite({ voteType: 'count' }, { project: { projectHasEnded: true } });
    const report = await checkpoint(site.id);
    expect(report.sites[0]!.nextDueAt).toBeNull();
  });

  it('an empty site gets no checkpoint', async () => {
    const site = await votingSite({ voteType: 'count' });
    expect((await checkpoint(site.id)).sites[0]!.done).toEqual([]);
    expect((await listCheckpoints(site.id, SERVICE_TOKEN)).body.records).toEqual([]);
  });

  it('the list is for moderators and above: member 403, nobody 401', async () => {
    const site = await votingSite({ voteType: 'count', isViewable: true });
    const member = await createUser(site.id);
    expect((await listCheckpoints(site.id)).status).toBe(401);
    expect((await listCheckpoints(site.id, member.token)).status).toBe(403);
  });
});

describe('verify-votes', () => {
  it('an untouched site agrees (exit 0), also after a round since its checkpoint', async () => {
    const { site, ideas, users } = await votedSite();
    // A clock one minute ahead pins the ballots as they are now; the round below comes after.
    await checkpoint(site.id, 1);
    expect((await castVotes(site.id, users[1]!.token, [{ ideaId: ideas[2] }])).status).toBe(200);
    const report = await verifySiteVotes(site.id);
    expect(report.problems).toEqual([]);
    expect(report.checkpoint).toMatch(/matches \(3 ballot\(s\)\)/);
    const { code, output } = await verifyCommand(site.id);
    expect(code).toBe(0);
    expect(output).toContain('OK');
  });

  it('a tally edited behind the API: exit 1 naming the idea', async () => {
    const { site, ideas } = await votedSite();
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ideaKeys.ideaTally(site.id, ideas[1]),
        UpdateExpression: 'ADD #c :one',
        ExpressionAttributeNames: { '#c': 'v_yes' },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    const { code, output } = await verifyCommand(site.id);
    expect(code).toBe(1);
    expect(output).toContain(`tally of idea ${ideas[1]} 'yes': stored 3, ballots hold 2`);
  });

  it('a ballot edited behind the API (its tally moved along, so only the chain shows it): exit 1', async () => {
    const { site, ideas, users } = await votedSite();
    await checkpoint(site.id);
    const victim = users[0]!.id;
    // Swap the vote from idea 0 to idea 2, and fix the tallies too, as a careful forger would.
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ballotKeys.ballot(site.id, victim),
        UpdateExpression: 'REMOVE #v.#a SET #v.#b = :vote',
        ExpressionAttributeNames: { '#v': 'votes', '#a': String(ideas[0]), '#b': String(ideas[2]) },
        ExpressionAttributeValues: { ':vote': { id: 1, opinion: 'yes', createdAt: new Date().toISOString() } },
      }),
    );
    for (const [ideaId, delta] of [[ideas[0], -1], [ideas[2], 1]] as const) {
      await doc.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: ideaKeys.ideaTally(site.id, ideaId),
          UpdateExpression: 'ADD #c :d',
          ExpressionAttributeNames: { '#c': 'v_yes' },
          ExpressionAttributeValues: { ':d': delta },
        }),
      );
    }
    const { code, output } = await verifyCommand(site.id);
    expect(code).toBe(1);
    expect(output).toContain(`ballot of user ${victim} (version 1): its hash does not match its votes`);
  });

  it('a ballot re-hashed by a forger still breaks the published checkpoint', async () => {
    const { site, ideas, users } = await votedSite();
    await checkpoint(site.id);
    const victim = (await allBallots(site.id)).find((b) => b.userId === users[2]!.id)!;
    const votes = { [String(ideas[0])]: victim.votes[String(ideas[0])]! };
    const hash = ballotStateHash({ key: ballotLeafKey(victim.userId), version: 1, previousHash: GENESIS, votes: hashedVotes(votes) });
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ballotKeys.ballot(site.id, victim.userId),
        UpdateExpression: 'SET #v = :votes, #h = :hash',
        ExpressionAttributeNames: { '#v': 'votes', '#h': 'hash' },
        ExpressionAttributeValues: { ':votes': votes, ':hash': hash },
      }),
    );
    const report = await verifySiteVotes(site.id);
    // The tallies (not fixed here) and the checkpoint both disagree; the chain alone is consistent.
    expect(report.problems.some((p) => p.startsWith('checkpoint '))).toBe(true);
    expect(report.problems.some((p) => p.startsWith('ballot of user'))).toBe(false);
  });

  it('reads its command line', () => {
    expect(parseVerifyCommand(['--site', '12'])).toBe(12);
    expect(() => parseVerifyCommand([])).toThrow(/usage/);
    expect(() => parseVerifyCommand(['--site', '0'])).toThrow(/usage/);
    expect(() => parseVerifyCommand(['--site', 'x'])).toThrow(/usage/);
  });
});
