/**
 * PUT /api/site/:siteId/vote/:voteId `{rejected}`: a moderator takes a vote out of every count and puts
 * it back. Written as the attacks (who may not, across sites, with ids that point elsewhere) and as the
 * invariants: the tallies, the results, the exports and the vote list follow; every decision is an
 * appended, chained entry of the vote log that `verify-votes` replays, and a rejection written behind
 * the log (forged entry, ballot edited in place) makes it exit 1.
 */
import { randomBytes } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runJob } from '#lib/jobs/index';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { readAllLogEntries, voteLogKeys } from '#lib/store/vote-log/log';
import { sealEntry } from '#lib/vote-record/entry';
import { entryItemOf } from '#lib/vote-record/entry-item';
import { voteIdOf, voterOfVoteId } from '#lib/votes/ids';
import { counterUserId, createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { allBallots, castVotes, createIdeas, deleteIdea, expectTalliesMatchBallots, storedTallies, votingSite } from '#tests/support/vote-fixtures';
import { verifyCommand } from '../../../scripts/verify-votes.ts';
import { call } from '../../../scripts/lambda-call.ts';
import { handler as reviewHandler } from '../../../functions/votes/review.ts';
import { handler as listHandler } from '../../../functions/votes/list.ts';
import { handler as resultsHandler } from '../../../functions/results/get.ts';
import { handler as exportHandler } from '../../../functions/results/export-votes.ts';
import { handler as anonymizeHandler } from '../../../functions/users/do-anonymize.ts';
import type { ListEnvelope, ResultsRecord } from '#tests/support/bodies';
import type { VoteRecord } from '#schemas/votes';
import { atWallClock } from '#tests/support/wall-clock';
import { onceBefore, tallySks } from '#tests/support/intercept';

const review = (siteId: number, voteId: number | string, token: string | undefined, body?: unknown) =>
  invoke<VoteRecord>(reviewHandler, {
    method: 'PUT',
    path: '/api/site/{siteId}/vote/{voteId}',
    params: { siteId, voteId },
    ...(body === undefined ? {} : { body }),
    ...(token ? { token } : {}),
  });
const listVotes = (siteId: number, token?: string, query: Record<string, string> = {}) =>
  invoke<ListEnvelope<VoteRecord>>(listHandler, { path: '/api/site/{siteId}/vote', params: { siteId }, query, ...(token ? { token } : {}) });
const results = (siteId: number) =>
  invoke<ResultsRecord>(resultsHandler, { method: 'GET', path: '/api/site/{siteId}/results', params: { siteId }, token: SERVICE_TOKEN });
const pabulib = async (siteId: number) =>
  (await call(exportHandler, { method: 'GET', path: '/api/site/{siteId}/export/votes', params: { siteId }, query: { format: 'pabulib' }, token: SERVICE_TOKEN })).text;
const entriesOf = async (siteId: number, userId: number) => (await readAllLogEntries(siteId)).filter((e) => e.userId === userId).sort((a, b) => a.version - b.version);
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
/** The checkpoint job a minute from now (the wall clock with it): the votes cast so far are in. */
const checkpointNextMinute = (siteId: number) => {
  const at = later(1);
  return atWallClock(at, () => runJob('vote-checkpoints', { now: at, siteId }));
};

async function expectVerified(siteId: number) {
  await checkpointNextMinute(siteId);
  const { code, output } = await verifyCommand(siteId);
  expect(code, output).toBe(0);
}

async function likesSite() {
  const site = await votingSite({ voteType: 'likes', isViewable: true });
  const ideas = await createIdeas(site.id, 2);
  const [voter, other, moderator] = await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id, 'moderator')]);
  const cast = await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
  expect(cast.status).toBe(200);
  expect((await castVotes(site.id, other.token, [{ ideaId: ideas[0] }])).status).toBe(200);
  const vote = cast.body.find((v) => v.ideaId === ideas[0])!;
  return { site, ideas, voter, other, moderator, vote };
}

describe('who may reject a vote', () => {
  it('nobody 401, a member 403 (the voter too), a moderator of another site 401; nothing written by any of them', async () => {
    const { site, ideas, voter, other, vote } = await likesSite();
    const elsewhere = await createSite();
    const foreign = await createUser(elsewhere.id, 'moderator');
    const before = await entriesOf(site.id, voter.id);
    expect((await review(site.id, vote.id, undefined, { rejected: true })).status).toBe(401);
    expect((await review(site.id, vote.id, other.token, { rejected: true })).status).toBe(403);
    expect((await review(site.id, vote.id, voter.token, { rejected: true })).status).toBe(403);
    expect((await review(site.id, vote.id, foreign.token, { rejected: true })).status).toBe(401);
    expect(await entriesOf(site.id, voter.id)).toEqual(before);
    expect((await storedTallies(site.id))[ideas[0]]).toEqual({ yes: 2 });
  });

  it("another site's vote through this site's path, an id no vote has, an id of the retired counter: 404; malformed ids 400", async () => {
    const { site, moderator } = await likesSite();
    const there = await likesSite();
    expect((await review(site.id, there.vote.id, moderator.token, { rejected: true })).status).toBe(404);
    expect((await review(site.id, voteIdOf(there.voter.id, 1), moderator.token, { rejected: true })).status).toBe(404);
    expect((await review(site.id, voteIdOf(987_654, 1), moderator.token, { rejected: true })).status).toBe(404);
    expect((await review(site.id, 12, moderator.token, { rejected: true })).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '012']) expect((await review(site.id, bad, moderator.token, { rejected: true })).status).toBe(400);
    expect((await review(site.id, there.vote.id, moderator.token, { rejected: 'yes' })).status).toBe(400);
    expect((await storedTallies(there.site.id))[there.ideas[0]]).toEqual({ yes: 2 });
  });

  it('a service token may (it acts as admin); the log names no moderator then', async () => {
    const { site, voter, vote } = await likesSite();
    const res = await review(site.id, vote.id, SERVICE_TOKEN, { rejected: true });
    expect(res.status).toBe(200);
    expect((await entriesOf(site.id, voter.id)).at(-1)!.rejected).toEqual([[vote.ideaId, 'yes', null]]);
  });
});

describe('likes: one vote', () => {
  it('a rejected like leaves the tally and the public list, stays listed to moderators and its voter, and comes back when reinstated', async () => {
    const { site, ideas, voter, moderator, vote } = await likesSite();
    const rejected = await review(site.id, vote.id, moderator.token, { rejected: true });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id: vote.id, ideaId: ideas[0], userId: voter.id, opinion: 'yes', rejected: true });
    expect((await storedTallies(site.id))[ideas[0]]).toEqual({ yes: 1 });
    expect((await storedTallies(site.id))[ideas[1]]).toEqual({ yes: 1 });
    await expectTalliesMatchBallots(site.id);

    const publicList = (await listVotes(site.id)).body.records;
    expect(publicList.map((v) => v.id)).not.toContain(vote.id);
    expect(publicList).toHaveLength(2);
    const asModerator = (await listVotes(site.id, moderator.token)).body.records.find((v) => v.id === vote.id);
    expect(asModerator).toMatchObject({ rejected: true, userId: voter.id });
    const own = (await listVotes(site.id, voter.token, { userId: String(voter.id) })).body.records.find((v) => v.id === vote.id);
    expect(own).toMatchObject({ rejected: true });

    // Setting the state it has, or no state at all: the answer, nothing written.
    const entries = (await entriesOf(site.id, voter.id)).length;
    expect((await review(site.id, vote.id, moderator.token, { rejected: true })).body).toMatchObject({ rejected: true });
    expect((await review(site.id, vote.id, moderator.token, {})).body).toMatchObject({ rejected: true });
    expect(await entriesOf(site.id, voter.id)).toHaveLength(entries);

    const back = await review(site.id, vote.id, moderator.token, { rejected: false });
    expect(back.status).toBe(200);
    expect(back.body.rejected).toBeUndefined();
    expect(back.body.reviewedAt).toEqual(expect.any(String));
    expect((await storedTallies(site.id))[ideas[0]]).toEqual({ yes: 2 });
    expect(await entriesOf(site.id, voter.id)).toHaveLength(entries + 1);
    await expectVerified(site.id);
  });

  it('each decision is the next chained version of the ballot, holding the rejected vote apart with its moderator', async () => {
    const { site, ideas, voter, moderator, vote } = await likesSite();
    await review(site.id, vote.id, moderator.token, { rejected: true });
    await review(site.id, vote.id, moderator.token, { rejected: false });
    const [v1, v2, v3] = await entriesOf(site.id, voter.id);
    expect(v2).toMatchObject({ version: 2, prevMac: v1!.mac, votes: [[ideas[1], 'yes']], rejected: [[ideas[0], 'yes', moderator.id]] });
    expect(v3).toMatchObject({ version: 3, prevMac: v2!.mac, votes: [[ideas[0], 'yes'], [ideas[1], 'yes']] });
    expect(v3!.rejected).toBeUndefined();
    const ballot = (await allBallots(site.id)).find((b) => b.userId === voter.id)!;
    expect(ballot).toMatchObject({ version: 3, hash: v3!.mac });
  });

  it("the voter's own later rounds: taking a rejected like back moves no count; liking again counts anew", async () => {
    const { site, ideas, voter, moderator, vote } = await likesSite();
    await review(site.id, vote.id, moderator.token, { rejected: true });
    expect((await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }])).body.map((v) => v.ideaId)).toEqual([ideas[1]]);
    expect((await storedTallies(site.id))[ideas[0]]).toEqual({ yes: 1 });
    await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }]);
    expect((await storedTallies(site.id))[ideas[0]]).toEqual({ yes: 2 });
    await expectTalliesMatchBallots(site.id);
    await expectVerified(site.id);
  });

  it('deleting the idea of a rejected vote and anonymizing its voter keep the tallies exact', async () => {
    const { site, ideas, voter, moderator, vote } = await likesSite();
    const second = (await listVotes(site.id, moderator.token)).body.records.find((v) => v.userId === voter.id && v.ideaId === ideas[1])!;
    await review(site.id, vote.id, moderator.token, { rejected: true });
    await review(site.id, second.id, moderator.token, { rejected: true });
    await deleteIdea(site.id, ideas[0]);
    await expectTalliesMatchBallots(site.id);
    const anonymized = await invoke(anonymizeHandler, { method: 'PUT', path: '/api/site/{siteId}/user/{userId}/do-anonymize', params: { siteId: site.id, userId: voter.id }, token: voter.token });
    expect(anonymized.status).toBe(200);
    await expectTalliesMatchBallots(site.id);
    await expectVerified(site.id);
  });
});

describe('ballots: the whole ballot', () => {
  async function budgetingSite() {
    const site = await votingSite({ voteType: 'budgeting', withExisting: 'replace', maxBudget: 1000, minIdeas: 1, maxIdeas: 5 });
    const ideas = await createIdeas(site.id, 3, { budget: 300 });
    const [voter, other, moderator] = await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id, 'moderator')]);
    const cast = await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
    expect(cast.status).toBe(200);
    expect((await castVotes(site.id, other.token, [{ ideaId: ideas[1] }, { ideaId: ideas[2] }])).status).toBe(200);
    return { site, ideas, voter, other, moderator, vote: cast.body[0]! };
  }

  it('rejecting one vote rejects the ballot: tallies, results and the Pabulib export leave it out; reinstating brings it back whole', async () => {
    const { site, ideas, voter, moderator, vote } = await budgetingSite();
    expect((await review(site.id, vote.id, moderator.token, { rejected: true })).status).toBe(200);
    const tallies = await storedTallies(site.id);
    expect(tallies[ideas[0]]).toBeUndefined();
    expect(tallies[ideas[1]]).toEqual({ yes: 1 });
    const listed = (await listVotes(site.id, moderator.token)).body.records.filter((v) => v.userId === voter.id);
    expect(listed.map((v) => v.rejected)).toEqual([true, true]);

    const after = await results(site.id);
    expect(after.status).toBe(200);
    expect(after.body.ballots).toBe(1);
    expect(Object.fromEntries(after.body.ideas.map((i) => [i.id, i.yes]))).toEqual({ [ideas[0]]: 0, [ideas[1]]: 1, [ideas[2]]: 1 });
    const file = await pabulib(site.id);
    expect(file).toMatch(/num_votes;1\r?\n/);
    expect(file.split(/VOTES\r?\n/)[1]!.trim().split(/\r?\n/)).toHaveLength(2); // its header and the one ballot that counts
    await expectVerified(site.id);

    expect((await review(site.id, vote.id, moderator.token, { rejected: false })).status).toBe(200);
    expect(await storedTallies(site.id)).toEqual({ [ideas[0]]: { yes: 1 }, [ideas[1]]: { yes: 2 }, [ideas[2]]: { yes: 1 } });
    // The results follow at the next computation (a moderator's read computes at most every
    // RECOMPUTE_INTERVAL_SECONDS); the export reads the ballots as they are.
    expect(await pabulib(site.id)).toMatch(/num_votes;2\r?\n/);
    await expectVerified(site.id);
  });

  it('a round re-sending the same ballot keeps it rejected; another ballot replaces it and counts', async () => {
    const { site, ideas, voter, moderator, vote } = await budgetingSite();
    await review(site.id, vote.id, moderator.token, { rejected: true });
    const same = await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
    expect(same.body.map((v) => v.rejected)).toEqual([true, true]);
    expect((await storedTallies(site.id))[ideas[0]]).toBeUndefined();
    await castVotes(site.id, voter.token, [{ ideaId: ideas[2] }]);
    expect(await storedTallies(site.id)).toEqual({ [ideas[1]]: { yes: 1 }, [ideas[2]]: { yes: 2 } });
    await expectTalliesMatchBallots(site.id);
    await expectVerified(site.id);
  });

  it('a round that keeps the rejected votes and adds one makes a new ballot that counts whole, never in part', async () => {
    const { site, ideas, voter, moderator, vote } = await budgetingSite();
    await review(site.id, vote.id, moderator.token, { rejected: true });
    const grown = await castVotes(site.id, voter.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }, { ideaId: ideas[2] }]);
    expect(grown.status).toBe(200);
    expect(grown.body.map((v) => v.rejected ?? false)).toEqual([false, false, false]);
    expect(await storedTallies(site.id)).toEqual({ [ideas[0]]: { yes: 1 }, [ideas[1]]: { yes: 2 }, [ideas[2]]: { yes: 2 } });
    // Rejecting it again takes the whole new ballot out.
    expect((await review(site.id, grown.body[2]!.id, moderator.token, { rejected: true })).status).toBe(200);
    expect(await storedTallies(site.id)).toEqual({ [ideas[1]]: { yes: 1 }, [ideas[2]]: { yes: 1 } });
    await expectTalliesMatchBallots(site.id);
    await expectVerified(site.id);
  });
});

describe('reinstating a large ballot while one of its ideas is deleted', () => {
  it('the delete\'s cascade takes the idea\'s vote and the reinstatement plans again on the rest: no count left on the deleted idea', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', minIdeas: 1, maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 100);
    const [voter, moderator] = await Promise.all([createUser(site.id), createUser(site.id, 'moderator')]);
    const cast = await castVotes(site.id, voter.token, ideas.map((ideaId) => ({ ideaId })));
    expect(cast.status).toBe(200);
    const vote = cast.body[0]!;
    expect((await review(site.id, vote.id, moderator.token, { rejected: true })).status).toBe(200);

    // The reinstatement's first transaction holds what fits; an idea whose count would move after it
    // (in the journal, unchecked) is deleted, cascade and all, just before that transaction is sent.
    const ballotSk = ballotKeys.ballot(site.id, voter.id).SK;
    let victim: number | undefined;
    const fired = onceBefore(
      (sent) => sent.commandName === 'TransactWriteItemsCommand' && JSON.stringify(sent.input).includes(ballotSk) && tallySks(sent.input).length > 0,
      async (sent) => {
        const inFirst = new Set(tallySks(sent.input));
        victim = ideas.find((id) => id !== vote.ideaId && !inFirst.has(ideaKeys.ideaTally(site.id, id).SK));
        if (victim !== undefined) await deleteIdea(site.id, victim);
      },
    );
    const reinstated = await review(site.id, vote.id, moderator.token, { rejected: false });
    expect(fired()).toBe(true);
    expect(victim, 'every count of the reinstatement fit its first transaction').toBeDefined();
    expect(reinstated.status).toBe(200);
    expect(reinstated.body.rejected ?? false).toBe(false);
    const held = (await allBallots(site.id)).find((b) => b.userId === voter.id)!;
    expect(Object.keys(held.votes)).not.toContain(String(victim));
    expect(Object.keys(held.votes)).toHaveLength(99);
    expect((await storedTallies(site.id))[victim!]).toBeUndefined();
    await expectTalliesMatchBallots(site.id);
    await expectVerified(site.id);
  });
});

describe('verify-votes and a rejection written behind the log', () => {
  it('a forged rejection (an entry sealed without the chain key, the tally moved along): exit 1', async () => {
    const { site, ideas, voter, vote } = await likesSite();
    await checkpointNextMinute(site.id);
    const [v1] = await entriesOf(site.id, voter.id);
    const at = new Date().toISOString();
    const forged = sealEntry(randomBytes(32), { siteId: site.id, userId: voter.id, version: 2, prevMac: v1!.mac, votes: [{ ideaId: ideas[1], opinion: 'yes' }], rejected: [{ ideaId: ideas[0], opinion: 'yes', by: 1 }], writtenAt: at });
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...voteLogKeys.entry(site.id, at, forged.mac), ...entryItemOf(forged) } }));
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ballotKeys.ballot(site.id, voter.id),
        UpdateExpression: 'SET #v.#i.#r = :review, version = :two, #h = :mac, prevHash = :prev',
        ExpressionAttributeNames: { '#v': 'votes', '#i': String(vote.ideaId), '#r': 'review', '#h': 'hash' },
        ExpressionAttributeValues: { ':review': { rejected: true, by: 1, at }, ':two': 2, ':mac': forged.mac, ':prev': v1!.mac },
      }),
    );
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, ideas[0]), UpdateExpression: 'ADD #c :d', ExpressionAttributeNames: { '#c': 'v_yes' }, ExpressionAttributeValues: { ':d': -1 } }));
    const { code, output } = await verifyCommand(site.id);
    expect(code, output).toBe(1);
    expect(output).toMatch(/version 2 is not sealed by the chain key: a forged or edited entry/);
  });

  it('a rejection edited into the ballot in place (no entry), or a sealed one undone in place: exit 1', async () => {
    const { site, ideas, voter, moderator, vote } = await likesSite();
    const mark = (review: unknown) =>
      doc.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: ballotKeys.ballot(site.id, voter.id),
          UpdateExpression: review === undefined ? 'REMOVE #v.#i.#r' : 'SET #v.#i.#r = :review',
          ExpressionAttributeNames: { '#v': 'votes', '#i': String(vote.ideaId), '#r': 'review' },
          ...(review === undefined ? {} : { ExpressionAttributeValues: { ':review': review } }),
        }),
      );
    const moveTally = (d: number) =>
      doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, ideas[0]), UpdateExpression: 'ADD #c :d', ExpressionAttributeNames: { '#c': 'v_yes' }, ExpressionAttributeValues: { ':d': d } }));
    await mark({ rejected: true, by: moderator.id, at: new Date().toISOString() });
    await moveTally(-1);
    let report = await verifyCommand(site.id);
    expect(report.code, report.output).toBe(1);
    expect(report.output).toMatch(/holds other votes than its log entry: edited in place/);

    // Undo the tampering, then reject for real and undo that in place.
    await mark(undefined);
    await moveTally(1);
    expect((await verifyCommand(site.id)).code).toBe(0);
    await review(site.id, vote.id, moderator.token, { rejected: true });
    await mark({ rejected: true, by: voter.id, at: new Date().toISOString() });
    report = await verifyCommand(site.id);
    expect(report.code, report.output).toBe(1);
    expect(report.output).toMatch(/holds other rejected votes than its log entry: a rejection edited in place/);
  });
});

describe('voters of both kinds of user id: from the retired counter and timed', () => {
  it('each vote is found by its id and reviewed; tallies, results, the export, the list and the vote record agree', async () => {
    const site = await votingSite({ voteType: 'budgeting', withExisting: 'replace', maxBudget: 1000, minIdeas: 1, maxIdeas: 5, isViewable: true });
    const ideas = await createIdeas(site.id, 3, { budget: 300 });
    const [old, timed, moderator] = await Promise.all([createUser(site.id, 'member', { id: counterUserId() }), createUser(site.id), createUser(site.id, 'moderator')]);
    expect(old.id).toBeLessThan(1e9);
    expect(String(timed.id)).toHaveLength(12);
    const oldVotes = await castVotes(site.id, old.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
    const timedVotes = await castVotes(site.id, timed.token, [{ ideaId: ideas[1] }, { ideaId: ideas[2] }]);
    expect([oldVotes.status, timedVotes.status]).toEqual([200, 200]);
    expect(voterOfVoteId(oldVotes.body[0]!.id)).toBe(old.id);
    expect(voterOfVoteId(timedVotes.body[0]!.id)).toBe(timed.id);

    for (const [voter, vote] of [[old, oldVotes.body[0]!], [timed, timedVotes.body[1]!]] as const) {
      const rejected = await review(site.id, vote.id, moderator.token, { rejected: true });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
      expect(rejected.body).toMatchObject({ id: vote.id, userId: voter.id, rejected: true });
      const listed = (await listVotes(site.id, moderator.token)).body.records.filter((v) => v.userId === voter.id);
      expect(listed.map((v) => v.rejected)).toEqual([true, true]);
      await expectTalliesMatchBallots(site.id);
      await expectVerified(site.id);
      expect((await review(site.id, vote.id, moderator.token, { rejected: false })).status).toBe(200);
    }

    expect(await storedTallies(site.id)).toEqual({ [ideas[0]]: { yes: 1 }, [ideas[1]]: { yes: 2 }, [ideas[2]]: { yes: 1 } });
    const listed = (await listVotes(site.id, moderator.token)).body.records;
    expect(new Set(listed.map((v) => v.userId))).toEqual(new Set([old.id, timed.id]));
    expect(listed.every((v) => voterOfVoteId(v.id) === v.userId)).toBe(true);
    const after = await results(site.id);
    expect(after.status).toBe(200);
    expect(after.body.ballots).toBe(2);
    expect(await pabulib(site.id)).toMatch(/num_votes;2\r?\n/);
    await expectVerified(site.id);
  });
});
