/**
 * Constant cost: a vote round of up to 96 ideas is two DynamoDB requests, one read and one transaction of one
 * action per idea it changes plus the ballot (docs/data-model.md, "Votes"), until DynamoDB's own limits
 * (100 keys per BatchGet, 100 actions per transaction) split the read and the counts.
 */
import { describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { createUser } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { READ_AHEAD_IDEAS } from '#lib/votes/cast';
import { castVotes, createIdeas, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';

/** Records the number of actions of every TransactWriteItems while `fn` runs. */
async function transactionSizes<T>(fn: () => Promise<T>): Promise<{ result: T; sizes: number[] }> {
  const sizes: number[] = [];
  const name = 'testTransactionSize';
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if ((context as { commandName?: string }).commandName === 'TransactWriteItemsCommand') {
        sizes.push(((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length);
      }
      return next(args);
    },
    // High: outside the store's retry policy (one entry per transaction the code sends, not per attempt).
    { step: 'initialize', name, priority: 'high' },
  );
  try {
    return { result: await fn(), sizes };
  } finally {
    dynamo.middlewareStack.remove(name);
  }
}

/** A round: one consistent BatchGet (site, caller, ballot, stored answer, the round's tallies), one transaction. */
const TWO = { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 };

describe('requests per vote round', () => {
  it.each([[1], [20], [READ_AHEAD_IDEAS]])('a count round of %i ideas takes 2 requests, one transaction of n + 2 actions (the ballot and its log entry)', async (n) => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, n);
    const user = await createUser(site.id);
    const { result: counted, sizes } = await transactionSizes(() => countRequests(() => castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })))));
    expect(counted.result.status).toBe(200);
    expect(counted.result.body).toHaveLength(n);
    expect(counted.commands).toEqual(TWO);
    expect(sizes).toEqual([n + 2]);
    await expectTalliesMatchBallots(site.id);
  });

  it('a round of 97 ideas reads the tallies past the first 96 (READ_AHEAD_IDEAS) after its checks: 3 requests, one transaction', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, READ_AHEAD_IDEAS + 1);
    const user = await createUser(site.id);
    const { result: counted, sizes } = await transactionSizes(() => countRequests(() => castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })))));
    expect(counted.result.status).toBe(200);
    expect(counted.commands).toEqual({ BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 });
    expect(sizes).toEqual([99]);
    await expectTalliesMatchBallots(site.id);
  });

  it('past DynamoDB\'s limits (100 actions per transaction) a round of 100 counts in two transactions', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 100);
    const user = await createUser(site.id);
    const { result: counted, sizes } = await transactionSizes(() => countRequests(() => castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })))));
    expect(counted.result.status).toBe(200);
    // 24 keys ahead (site, caller, ballot, 20 tallies), the other 80 tallies after the checks, and a
    // check that the idea whose count rode in the journal was not deleted meanwhile.
    expect(counted.commands).toEqual({ BatchGetItemCommand: 3, TransactWriteItemsCommand: 2 });
    // The ballot, its log entry and 98 tallies, then the journal's step: the last two with the journal cleared.
    expect(sizes).toEqual([100, 3]);
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.keys(tallies)).toHaveLength(100);
  });

  it('a replace round swapping 100 votes for 100 others: the votes change at once, the 200 counts follow in steps, exactly', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 200);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, ideas.slice(0, 100).map((ideaId) => ({ ideaId })))).status).toBe(200);
    const { result: counted, sizes } = await transactionSizes(() =>
      countRequests(() => castVotes(site.id, user.token, ideas.slice(100).map((ideaId) => ({ ideaId })))),
    );
    expect(counted.result.status).toBe(200);
    // The first transaction holds the ballot, its log entry and 98 of the 100 additions (their
    // conditions); the journal then applies the last two additions and the 100 removals.
    expect(sizes).toEqual([100, 100, 4]);
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.keys(tallies).map(Number).sort((a, b) => a - b)).toEqual(ideas.slice(100));
  });

  it('likes, budgeting with merge, and an Idempotency-Key stay at 2 requests', async () => {
    const likes = await votingSite({ voteType: 'likes' });
    const budget = await votingSite({ voteType: 'budgeting', withExisting: 'merge', maxIdeas: 100 });
    for (const n of [1, 20]) {
      const likeIdeas = await createIdeas(likes.id, n);
      const liker = await createUser(likes.id);
      const like = await countRequests(() => castVotes(likes.id, liker.token, likeIdeas.map((ideaId) => ({ ideaId }))));
      expect(like.commands).toEqual(TWO);
      const withKey = await countRequests(() =>
        castVotes(likes.id, liker.token, likeIdeas.map((ideaId) => ({ ideaId, opinion: 'no' })), { 'Idempotency-Key': `k${n}` }),
      );
      expect(withKey.result.status).toBe(200);
      expect(withKey.commands).toEqual(TWO);
      const replay = await countRequests(() =>
        castVotes(likes.id, liker.token, likeIdeas.map((ideaId) => ({ ideaId, opinion: 'no' })), { 'Idempotency-Key': `k${n}` }),
      );
      expect(replay.result.body).toEqual(withKey.result.body);
      // The stored answer comes with the first read.
      expect(replay.commands).toEqual({ BatchGetItemCommand: 1 });

      // merge under a budget: the held votes' budgets come from the ballot's own copies, not a read.
      const budgetIdeas = await createIdeas(budget.id, 2 * n, { budget: 10 });
      const voter = await createUser(budget.id);
      expect((await castVotes(budget.id, voter.token, budgetIdeas.slice(0, n).map((ideaId) => ({ ideaId })))).status).toBe(200);
      const merged = await countRequests(() => castVotes(budget.id, voter.token, budgetIdeas.slice(n).map((ideaId) => ({ ideaId }))));
      expect(merged.result.status).toBe(200);
      expect(merged.result.body).toHaveLength(2 * n);
      expect(merged.commands).toEqual(TWO);
    }
  });

  it('a round that changes nothing reads and does not write (1 request)', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace' });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    const body = ideas.map((ideaId) => ({ ideaId }));
    const first = await castVotes(site.id, user.token, body);
    const { result, commands } = await countRequests(() => castVotes(site.id, user.token, body));
    expect(result.body).toEqual(first.body);
    expect(commands).toEqual({ BatchGetItemCommand: 1 });
  });
});
