/**
 * A round that changes more ideas than one transaction holds (DynamoDB: 100 actions) commits the ballot
 * with the first counts and keeps the rest on the ballot as a journal (lib/store/ballots/journal.ts).
 * When the process stops before the journal is applied, the next writer of that ballot applies it,
 * exactly once: the counts end exact whoever finishes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { getBallot } from '#lib/store/ballots/ballots';
import { createUser } from '#tests/support/fixtures';
import { castVotes, createIdeas, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';

const NAME = 'testJournalStepFails';
afterEach(() => {
  dynamo.middlewareStack.remove(NAME);
});

/** The journal's step transactions (they clear or advance `pendingTallies`) fail, as a crash would stop them. */
function stopJournalSteps(): () => number {
  let stopped = 0;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify((args as { input?: unknown }).input);
      if ((context as { commandName?: string }).commandName === 'TransactWriteItemsCommand' && input.includes('#pending.#next = :step')) {
        stopped++;
        throw Object.assign(new Error('injected: the process stopped'), { name: 'InjectedFailure' });
      }
      return next(args);
    },
    // High: before the retry policy, so nothing retries it.
    { step: 'initialize', name: NAME, priority: 'high' },
  );
  return () => stopped;
}

describe('the tally journal of a large round', () => {
  it('a round stopped after its ballot is finished by the next round of that voter, exactly once', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 100);
    const user = await createUser(site.id);
    const round = ideas.map((ideaId) => ({ ideaId }));
    const stopped = stopJournalSteps();
    const first = await castVotes(site.id, user.token, round);
    expect(first.status).toBe(500);
    expect(stopped()).toBe(1);
    dynamo.middlewareStack.remove(NAME);
    // The ballot holds the whole round; two counts wait in its journal (the ballot and its log entry
    // take two of the first transaction's 100 actions).
    const ballot = await getBallot(site.id, user.id, true);
    expect(Object.keys(ballot!.votes)).toHaveLength(100);
    expect(ballot!.pendingTallies?.steps.flat()).toHaveLength(2);

    // The client retries: the round reads the ballot, applies the journal, and has nothing left to do.
    const retry = await castVotes(site.id, user.token, round);
    expect(retry.status).toBe(200);
    expect(retry.body).toHaveLength(100);
    expect((await getBallot(site.id, user.id, true))!.pendingTallies).toBeUndefined();
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.values(tallies)).toEqual(ideas.map(() => ({ yes: 1 })));
  });

  it('two writers finishing the same journal count it once', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 200);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, ideas.slice(0, 100).map((ideaId) => ({ ideaId })))).status).toBe(200);
    stopJournalSteps();
    expect((await castVotes(site.id, user.token, ideas.slice(100).map((ideaId) => ({ ideaId })))).status).toBe(500);
    dynamo.middlewareStack.remove(NAME);
    const again = ideas.slice(100).map((ideaId) => ({ ideaId }));
    const answers = await Promise.all([castVotes(site.id, user.token, again), castVotes(site.id, user.token, again)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.keys(tallies).map(Number).sort((a, b) => a - b)).toEqual(ideas.slice(100));
  });
});
