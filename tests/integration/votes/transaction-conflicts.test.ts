/**
 * DynamoDB transaction conflicts (TransactionCanceled with TransactionConflict), which DynamoDB Local
 * never produces because it serialises transactions, so they are injected with an SDK middleware.
 */
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { getBallot } from '#lib/store/ballots/ballots';
import { createUser } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { invoke } from '#tests/support/invoke';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { castVotes, createIdeas, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';

describe('DynamoDB transaction conflicts', () => {
  const FAULT = 'testTransactionConflict';
  afterEach(() => {
    dynamo.middlewareStack.remove(FAULT);
  });

  /**
   * Makes the next `times` TransactWriteItems fail the way DynamoDB does when transactions collide.
   * Returns how many are still to come.
   */
  function injectConflicts(times: number, kind: 'cancelled' | 'conflict' = 'cancelled'): () => number {
    let left = times;
    const error = () =>
      kind === 'conflict'
        ? Object.assign(new Error('Transaction is ongoing for the item'), { name: 'TransactionConflictException' })
        : Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons'), {
            name: 'TransactionCanceledException',
            CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
          });
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (left > 0 && /TransactWrite/.test(String((context as { commandName?: string }).commandName))) {
          left--;
          throw error();
        }
        return next(args);
      },
      // Low priority: inside the store's retry policy (lib/store/db/retry.ts), as the service's refusals are.
      { step: 'initialize', name: FAULT, priority: 'low' },
    );
    return () => left;
  }

  it.each([['cancelled'], ['conflict']] as const)('a round re-reads and retries (%s), and lands once', async (kind) => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const user = await createUser(site.id);
    const left = injectConflicts(3, kind);
    const { result, commands } = await countRequests(() => castVotes(site.id, user.token, [{ ideaId: idea }]));
    expect(result.status).toBe(200);
    // The store's retry policy sent the same transaction again three times: one transaction for the code.
    expect(left()).toBe(0);
    // One read, one transaction: no id counter on the way.
    expect(commands).toEqual({ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [idea]: { yes: 1 } });
  });

  it('after the bounded retries: 409 asking to retry, nothing stored', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const user = await createUser(site.id);
    injectConflicts(1000);
    const res = await castVotes(site.id, user.token, [{ ideaId: idea }]);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: 'Conflict', message: expect.stringMatching(/retry/) });
    dynamo.middlewareStack.remove(FAULT);
    expect(await getBallot(site.id, user.id)).toBeUndefined();
    expect(await expectTalliesMatchBallots(site.id)).toEqual({});
  });

  it('contention on one idea: 60 voters at once, each transaction refused twice, the count exact and the order by votes right', async () => {
    const site = await votingSite({ voteType: 'likes', isViewable: true });
    const [hot, cold] = await createIdeas(site.id, 2);
    const voters = await Promise.all(Array.from({ length: 60 }, () => createUser(site.id)));
    await castVotes(site.id, voters[0]!.token, [{ ideaId: cold! }]);
    await castVotes(site.id, voters[1]!.token, [{ ideaId: cold! }]);
    // Each transaction collides on its first two attempts (known by its ClientRequestToken, the same on
    // every attempt), as the service cancels transactions that meet on one busy item.
    let sent = 0;
    const refused = new Map<string, number>();
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (/TransactWrite/.test(String((context as { commandName?: string }).commandName))) {
          sent++;
          const token = String((args.input as { ClientRequestToken?: string }).ClientRequestToken);
          const times = refused.get(token) ?? 0;
          if (times < 2) {
            refused.set(token, times + 1);
            throw Object.assign(new Error('Transaction cancelled'), {
              name: 'TransactionCanceledException',
              CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
            });
          }
        }
        return next(args);
      },
      { step: 'initialize', name: FAULT, priority: 'low' },
    );
    const answers = await Promise.all(voters.map((voter) => castVotes(site.id, voter.token, [{ ideaId: hot! }])));
    expect(answers.map((a) => a.status)).toEqual(voters.map(() => 200));
    dynamo.middlewareStack.remove(FAULT);
    expect(sent).toBe(3 * 60);
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(tallies[hot!]).toEqual({ yes: 60 });
    // The rank moved with every counted vote: the hot idea leads, then the other, in the index.
    const page = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { sort: 'votes_desc', includeVoteCount: '1' } });
    expect(page.body.records.map((r) => [r.id, r.yes])).toEqual([
      [hot, 60],
      [cold, 2],
    ]);
  });
});
