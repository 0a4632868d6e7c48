/**
 * The writes of anonymization (lib/privacy/anonymize.ts), each one transaction that is safe to repeat:
 *
 *   clearBallot          the user's ballot emptied (kept, version + 1) with the negative tally deltas
 *                        of the votes it held, so tallies stay exact;
 *   putAnonymizedUser    the user item replaced by its anonymized form (without GSI1 keys) together
 *                        with the removal of the auth-server link item and the write of the
 *                        person's role floor: anonymizing and unlinking happen at once or not at all.
 */
import { ballotPutItem, type BallotItem, type BallotSeal } from '#lib/store/ballots/ballots';
import { TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';
import { roleFloorPut } from '#lib/store/users/role-floor';
import { tallyChangeItem, type Tally } from '#lib/store/ideas/tallies';
import { finishPendingTallies, journalSteps } from '#lib/store/ballots/journal';
import { MAX_TRANSACTION_ACTIONS } from '#lib/store/db/limits';
import { externalKeyOf, type UserItem } from '#lib/store/users/users';
import { userCodec } from '#lib/store/users/codec';
import { conditionFailed } from '#lib/store/db/failures';
import { transact, type TransactItem } from '#lib/store/db/transact';
import { logEntryPut } from '#lib/store/vote-log/log';

/** The outcome of a conditional write: done, or the item moved since it was read (re-read, retry). */
type AnonymizeWriteOutcome = 'done' | 'changed';

/** A cancelled transaction whose items moved (a failed condition or a concurrent transaction) is 'changed'. */
async function transactOrChanged(items: TransactItem[]): Promise<AnonymizeWriteOutcome> {
  try {
    await transact(items);
    return 'done';
  } catch (err) {
    // Conflicts were retried by the store's policy (lib/store/db/retry.ts); a failed condition means the items moved.
    if (conditionFailed(err)) return 'changed';
    throw err;
  }
}

/**
 * Removes every vote of a ballot read at `ballot.version`: ONE transaction of the emptied ballot
 * (conditioned on that version; kept rather than deleted, see `ballotPutItem`) and the negative change
 * of each idea it voted on; what does not fit DynamoDB's 100 actions follows through the ballot's
 * journal (lib/store/ballots/journal.ts). 'changed' when a vote round of the user (or an idea delete)
 * moved the ballot meanwhile.
 */
export async function clearBallot(ballot: BallotItem, now: string, seal: BallotSeal): Promise<AnonymizeWriteOutcome> {
  if (ballot.pendingTallies) {
    await finishPendingTallies(ballot.siteId, ballot.userId, ballot.pendingTallies);
    return 'changed';
  }
  // A vote a moderator rejected is in no count: clearing it moves none.
  const changes = Object.entries(ballot.votes ?? {})
    .filter(([, vote]) => !vote.review?.rejected)
    .map(([ideaId, vote]) => ({ ideaId: Number(ideaId), change: { [vote.opinion]: -1 } as Tally }));
  // The ballot and its log entry, then as many count changes as fit.
  const first = changes.slice(0, MAX_TRANSACTION_ACTIONS - 2);
  const later = journalSteps(changes.slice(MAX_TRANSACTION_ACTIONS - 2));
  const outcome = await transactOrChanged([
    ballotPutItem(ballot.siteId, ballot.userId, {}, ballot.version, now, seal, {
      ...(ballot.voteSeq !== undefined ? { voteSeq: ballot.voteSeq } : {}),
      ...(later.length > 0 ? { pendingTallies: { next: 0, steps: later } } : {}),
    }),
    logEntryPut(seal.entry),
    // Unconditional: an idea being deleted keeps its tally until its cascade has taken this vote too.
    ...first.map((c) => tallyChangeItem(ballot.siteId, c.ideaId, c.change, { addsVotes: false, unconditional: true })),
  ]);
  if (outcome === 'done' && later.length > 0) await finishPendingTallies(ballot.siteId, ballot.userId, { next: 0, steps: later });
  return outcome;
}

/**
 * Replaces the user item `before` (as read: the Put is conditioned on its `updatedAt`) with
 * `anonymized`, which carries no GSI1 keys, so the person's other sites no longer find it, and in the
 * same transaction deletes the link item that made the person's next login find it (only while it
 * still points at this user). 'changed' when the user was written meanwhile.
 */
export function putAnonymizedUser(before: UserItem, anonymized: UserItem): Promise<AnonymizeWriteOutcome> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: TABLE,
        // Anonymized and unlinked: the codec gives it no index keys, so no GSI finds it any more.
        Item: userCodec.toItem(anonymized),
        ConditionExpression: 'attribute_exists(PK) AND #updatedAt = :seen',
        ExpressionAttributeNames: { '#updatedAt': 'updatedAt' },
        ExpressionAttributeValues: { ':seen': before.updatedAt },
      },
    },
  ];
  if (before.authServer && before.externalUserId) {
    items.push({
      Delete: {
        TableName: TABLE,
        Key: userKeys.userLink(before.siteId, externalKeyOf(before.authServer, before.externalUserId)),
        ConditionExpression: 'attribute_not_exists(PK) OR userId = :uid',
        ExpressionAttributeValues: { ':uid': before.id },
      },
    });
    // The link goes, so the role the site gave stays as the person's floor (lib/store/users/role-floor.ts).
    items.push(...roleFloorPut(before));
  }
  return transactOrChanged(items);
}
