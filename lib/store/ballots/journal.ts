/**
 * The tally changes of a vote round that did not fit its one transaction (DynamoDB: 100 actions), kept
 * on the ballot as `pendingTallies` and applied in further transactions (lib/store/ballots/rounds.ts).
 * Each step advances the journal on the condition that it is still at that step, so each step counts
 * exactly once, whoever runs it: the round itself, or the next writer of a ballot whose round stopped
 * halfway (a later round, an idea's delete cascade, anonymization).
 */
import { TABLE } from '#lib/store/db/client';
import { failedConditions } from '#lib/store/db/failures';
import { ballotKeys } from '#lib/store/ballots/keys';
import { MAX_TRANSACTION_ACTIONS } from '#lib/store/db/limits';
import { tallyChangeItem, type Tally } from '#lib/store/ideas/tallies';
import type { StoredPendingTallies } from '#schemas/stored/ballot';
import { update, withCondition } from '#lib/store/db/update';
import { transact } from '#lib/store/db/transact';

/** The steps of a round's counts not yet applied, and the next one to apply. */
export type PendingTallies = StoredPendingTallies;


/** Changes that did not fit, cut into steps that each fit one transaction with the ballot's journal. */
export function journalSteps(rest: ReadonlyArray<{ ideaId: number; change: Tally }>): PendingTallies['steps'] {
  const steps: PendingTallies['steps'] = [];
  const nonZero = rest.filter((c) => Object.values(c.change).some((delta) => delta !== 0));
  for (let i = 0; i < nonZero.length; i += MAX_TRANSACTION_ACTIONS - 1) {
    steps.push(nonZero.slice(i, i + MAX_TRANSACTION_ACTIONS - 1).map((c) => ({ ideaId: c.ideaId, change: c.change })));
  }
  return steps;
}

/**
 * Applies the remaining steps. The counts are unconditional: by then the votes are in the ballot, and
 * an idea deleted meanwhile has its cascade take them out again after it finished this journal.
 */
export async function finishPendingTallies(siteId: number, userId: number, pending: PendingTallies): Promise<void> {
  for (let step = pending.next; step < pending.steps.length; step++) {
    const last = step === pending.steps.length - 1;
    try {
      await transact([
        {
          Update: {
            TableName: TABLE,
            Key: ballotKeys.ballot(siteId, userId),
            ...withCondition(update(last ? { remove: ['pendingTallies'] } : { setAt: [[['pendingTallies', 'next'], step + 1]] }), {
              expression: '#pending.#next = :step',
              names: { '#pending': 'pendingTallies', '#next': 'next' },
              values: { ':step': step },
            }),
          },
        },
        ...pending.steps[step]!.map((c) => tallyChangeItem(siteId, c.ideaId, c.change, { addsVotes: false, unconditional: true })),
      ]);
    } catch (err) {
      // Someone else applied this step (or all of them): nothing is left for us.
      if (failedConditions(err)?.[0]?.Code === 'ConditionalCheckFailed') return;
      throw err;
    }
  }
}
