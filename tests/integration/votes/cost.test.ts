/**
 * Constant cost: a vote round takes the same number of DynamoDB requests whatever its size (the
 * figures are in docs/data-model.md, "Votes"), and its transaction stays far below DynamoDB's limit
 * of 100 actions even when a replace round swaps 100 votes for 100 others.
 */
import { describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/client';
import { createUser } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
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

const SIX = {
  GetItemCommand: 3, // site, caller, ballot
  BatchGetItemCommand: 1, // the round's ideas
  UpdateItemCommand: 1, // vote id counter
  TransactWriteItemsCommand: 1, // ballot + tally shards
};

describe('requests per vote round', () => {
  it.each([[1], [20], [100]])('a count round of %i ideas takes 6 requests', async (n) => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, n);
    const user = await createUser(site.id);
    const { result, requests, commands } = await countRequests(() =>
      castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId }))),
    );
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(n);
    expect(commands).toEqual(SIX);
    expect(requests).toBe(6);
  });

  it('a replace round swapping 100 votes for 100 others: 6 requests, one transaction of at most 11 actions', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 200);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, ideas.slice(0, 100).map((ideaId) => ({ ideaId })))).status).toBe(200);
    const { result: counted, sizes } = await transactionSizes(() =>
      countRequests(() => castVotes(site.id, user.token, ideas.slice(100).map((ideaId) => ({ ideaId })))),
    );
    expect(counted.result.status).toBe(200);
    expect(counted.requests).toBe(6);
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeLessThanOrEqual(11);
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.keys(tallies).map(Number).sort((a, b) => a - b)).toEqual(ideas.slice(100));
  });

  it('likes, budgeting with merge, and an Idempotency-Key (+1 GetItem) stay constant too', async () => {
    const likes = await votingSite({ voteType: 'likes' });
    const budget = await votingSite({ voteType: 'budgeting', withExisting: 'merge', maxIdeas: 100 });
    for (const n of [1, 50]) {
      const likeIdeas = await createIdeas(likes.id, n);
      const liker = await createUser(likes.id);
      const like = await countRequests(() => castVotes(likes.id, liker.token, likeIdeas.map((ideaId) => ({ ideaId }))));
      expect(like.requests).toBe(6);
      const withKey = await countRequests(() =>
        castVotes(likes.id, liker.token, likeIdeas.map((ideaId) => ({ ideaId, opinion: 'no' })), { 'Idempotency-Key': `k${n}` }),
      );
      expect(withKey.result.status).toBe(200);
      expect(withKey.requests).toBe(7);
      const replay = await countRequests(() =>
        castVotes(likes.id, liker.token, likeIdeas.map((ideaId) => ({ ideaId, opinion: 'no' })), { 'Idempotency-Key': `k${n}` }),
      );
      expect(replay.result.body).toEqual(withKey.result.body);
      // site, caller, stored answer, and the ballot read that runs alongside it
      expect(replay.requests).toBe(4);

      // merge under a budget reads the held votes' ideas in the same BatchGet as the round's.
      const budgetIdeas = await createIdeas(budget.id, 2 * n, { budget: 10 });
      const voter = await createUser(budget.id);
      expect((await castVotes(budget.id, voter.token, budgetIdeas.slice(0, n).map((ideaId) => ({ ideaId })))).status).toBe(200);
      const merged = await countRequests(() => castVotes(budget.id, voter.token, budgetIdeas.slice(n).map((ideaId) => ({ ideaId }))));
      expect(merged.result.status).toBe(200);
      expect(merged.result.body).toHaveLength(2 * n);
      expect(merged.commands).toEqual(SIX);
    }
  });

  it('a round that changes nothing reads and does not write (4 requests)', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace' });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    const body = ideas.map((ideaId) => ({ ideaId }));
    const first = await castVotes(site.id, user.token, body);
    const { result, commands } = await countRequests(() => castVotes(site.id, user.token, body));
    expect(result.body).toEqual(first.body);
    expect(commands).toEqual({ GetItemCommand: 3, BatchGetItemCommand: 1 });
  });
});
