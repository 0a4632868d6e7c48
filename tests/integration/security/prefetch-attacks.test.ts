/**
 * Attack: the request's first read (issue 17: one BatchGet of the site, the token's user and the keys
 * a route plans from the RAW request, served take-once from a request-scoped cache) and the new vote
 * store (per-idea tallies, vote ids from the ballot's sequence, the journal of large rounds).
 *
 * What must hold: nothing of one site or one request is served to another; a prefetched item never
 * stands in for a fresher one that a conditional write depends on; no client input yields a 5xx; the
 * CONTRACT error order is unchanged; tallies always equal what the ballots hold.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/client';
import { getBallot } from '#lib/store/ballots';
import { keys } from '#lib/store/keys';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdeas, deleteIdea, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';

const INTERCEPT = 'testPrefetchAttackIntercept';
afterEach(() => {
  dynamo.middlewareStack.remove(INTERCEPT);
});

type Sent = { commandName: string; input: any };

/**
 * Runs `before` once, just before the first DynamoDB command that `matches` is sent (its own commands
 * pass untouched): a deterministic interleaving of a concurrent writer.
 */
function onceBefore(matches: (sent: Sent) => boolean, before: (sent: Sent) => Promise<void>): () => boolean {
  let fired = false;
  let running = false;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const sent = { commandName: String((context as { commandName?: string }).commandName), input: (args as { input?: unknown }).input };
      if (!fired && !running && matches(sent)) {
        running = true;
        try {
          await before(sent);
        } finally {
          running = false;
          fired = true;
        }
      }
      return next(args);
    },
    { step: 'initialize', name: INTERCEPT, priority: 'high' },
  );
  return () => fired;
}

/** The tally SKs a transaction touches. */
const tallySks = (input: any): string[] =>
  (input?.TransactItems ?? [])
    .map((item: any) => (item.Update ?? item.ConditionCheck)?.Key?.SK)
    .filter((sk: unknown): sk is string => typeof sk === 'string' && sk.endsWith('#TALLY'));

describe('a large round (more ideas than one transaction) against an idea deleted while it is planned', () => {
  it('never leaves a vote on the deleted idea nor a tally that disagrees with the ballots', async () => {
    // 100 likes: 99 go in the first transaction with their "still votable" check, the rest in the journal.
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 100 });
    const ideas = await createIdeas(site.id, 100);
    const user = await createUser(site.id);
    const ballotSk = keys.ballot(site.id, user.id).SK;
    let victim: number | undefined;
    const fired = onceBefore(
      (sent) => sent.commandName === 'TransactWriteItemsCommand' && JSON.stringify(sent.input).includes(ballotSk) && tallySks(sent.input).length > 0,
      async (sent) => {
        // An idea of the round whose change is NOT in this first transaction: it rides in the journal.
        const inFirst = new Set(tallySks(sent.input));
        victim = ideas.find((id) => !inFirst.has(keys.ideaTally(site.id, id).SK));
        // Its deletion runs to the end between the round's read and its commit (a concurrent admin).
        if (victim !== undefined) await deleteIdea(site.id, victim);
      },
    );
    const res = await castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })));
    expect(fired()).toBe(true);
    expect(victim, 'every change of the round fit the first transaction').toBeDefined();

    // Either the round is refused for the vanished idea, or it is stored without it: never with it.
    expect([200, 400]).toContain(res.status);
    const ballot = await getBallot(site.id, user.id, true);
    expect(Object.keys(ballot?.votes ?? {})).not.toContain(String(victim));
    await expectTalliesMatchBallots(site.id);
  });
});
