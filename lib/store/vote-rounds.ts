/**
 * The storage side of a vote round: reading what a round is planned from, and applying the plan as ONE
 * TransactWriteItems (docs/data-model.md "Votes"):
 *
 *   [0]      the user's ballot: Put (or a ConditionCheck when nothing changes), conditioned on the
 *            version it was read at;
 *   [1..10]  one Update per touched tally shard: ADD the net deltas, requiring the marker of every idea
 *            the round adds a vote to;
 *   [last]   with an Idempotency-Key: the stored response, conditioned on not existing yet.
 *
 * So a round is all-or-nothing, tallies move with the votes, and at most 12 actions are used whatever
 * the round's size. A cancelled transaction is classified here, so the domain never sees AWS errors.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { failedConditions, type CancellationReason } from '#lib/store/failures';
import { batchGet } from '#lib/store/batch';
import { ballotPutItem, ballotUnchangedItem, type BallotSeal, type BallotVote } from '#lib/store/ballots';
import { doc } from '#lib/store/client';
import { idempotencyPutItem, type IdempotencyRecord } from '#lib/store/idempotency';
import { keys } from '#lib/store/keys';
import { markerAttribute, tallyUpdateItems, type Tally, type TransactItem } from '#lib/store/tallies';

/** The attributes of an idea item a round needs (a projection: descriptions are not read). */
export interface VotableIdeaItem {
  id: number;
  budget?: number | null;
  extraData?: { theme?: unknown };
}

/**
 * The ideas of a round (one BatchGet per 100 ids; a round of up to 100 ideas is one request). Strongly
 * consistent, so a round retried after an idea was deleted sees that it is gone.
 */
export async function readIdeasForVote(siteId: number, ideaIds: readonly number[]): Promise<VotableIdeaItem[]> {
  if (ideaIds.length === 0) return [];
  return batchGet<VotableIdeaItem>(
    ideaIds.map((id) => keys.idea(siteId, id)),
    {
      consistentRead: true,
      projection: {
        expression: '#id, #budget, #extraData.#theme',
        names: { '#id': 'id', '#budget': 'budget', '#extraData': 'extraData', '#theme': 'theme' },
      },
    },
  );
}

export interface RoundWrite {
  siteId: number;
  userId: number;
  /** The ballot version the round was planned from; undefined when the user had no ballot. */
  readVersion: number | undefined;
  /** The user's whole vote set after the round; undefined when the round changes nothing. */
  votes: Record<string, BallotVote> | undefined;
  /** The chain hash of the new state (issue 16), computed by the domain; required with `votes`. */
  seal?: BallotSeal | undefined;
  tallyDeltas: ReadonlyMap<number, Tally>;
  /** Ideas the round adds a vote to: each must still be votable when the transaction commits. */
  mustExist: readonly number[];
  idempotency?: { scope: string; key: string; record: Omit<IdempotencyRecord, 'ttl'>; ttlSeconds: number };
  now: Date;
}

export type RoundOutcome =
  | { kind: 'committed' }
  /** Another write changed the ballot since it was read (a concurrent round of the same user). */
  | { kind: 'ballot-changed' }
  /** These ideas of `mustExist` were deleted since the round was planned. */
  | { kind: 'ideas-gone'; ideaIds: number[] }
  /** A concurrent request with the same Idempotency-Key committed first. */
  | { kind: 'duplicate' }
  /** DynamoDB refused because of concurrent transactions on the same items, or throttling: retry. */
  | { kind: 'contended' };

export async function commitRound(write: RoundWrite): Promise<RoundOutcome> {
  const { siteId, userId, readVersion } = write;
  const now = write.now.toISOString();
  const ballotItem =
    write.votes === undefined || write.seal === undefined
      ? ballotUnchangedItem(siteId, userId, readVersion)
      : ballotPutItem(siteId, userId, write.votes, readVersion, now, write.seal);

  // ALL_OLD on a failed shard condition returns the shard, whose markers tell which ideas are gone.
  const shardItems = tallyUpdateItems(siteId, write.tallyDeltas, write.mustExist).map(
    (item): TransactItem =>
      item.Update?.ConditionExpression ? { Update: { ...item.Update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } } : item,
  );
  const idempotencyItem = write.idempotency
    ? idempotencyPutItem(
        siteId,
        write.idempotency.scope,
        write.idempotency.key,
        write.idempotency.record,
        write.idempotency.ttlSeconds,
        write.now,
      )
    : undefined;
  const items = [ballotItem, ...shardItems, ...(idempotencyItem ? [idempotencyItem] : [])];

  try {
    await doc.send(new TransactWriteCommand({ TransactItems: items }));
    return { kind: 'committed' };
  } catch (err) {
    // Conflicts and throttling were retried by the store's policy (lib/store/retry.ts), then 409/503.
    const reasons = failedConditions(err);
    if (!reasons) throw err;
    return classify(reasons, { siteId, shardItems, hasIdempotency: idempotencyItem !== undefined, mustExist: write.mustExist }, err);
  }
}

function classify(
  reasons: CancellationReason[],
  layout: { siteId: number; shardItems: TransactItem[]; hasIdempotency: boolean; mustExist: readonly number[] },
  err: unknown,
): RoundOutcome {
  const failed = (i: number) => reasons[i]?.Code === 'ConditionalCheckFailed';
  const shardRange = { from: 1, to: 1 + layout.shardItems.length };

  if (layout.hasIdempotency && failed(shardRange.to)) return { kind: 'duplicate' };
  // A stale ballot is checked before vanished ideas: the re-planned round may no longer add them.
  if (failed(0)) return { kind: 'ballot-changed' };

  const gone: number[] = [];
  for (let i = shardRange.from; i < shardRange.to; i++) {
    if (!failed(i)) continue;
    const shardSk = layout.shardItems[i - 1]!.Update!.Key!.SK as string;
    // The attribute names of the old shard (the SDK leaves cancellation items unmarshalled, names are
    // all we need). No item at all: the shard never existed, so none of its markers do.
    const present = new Set(Object.keys(reasons[i]?.Item ?? {}));
    for (const ideaId of layout.mustExist) {
      const inShard = keys.tallyShard(layout.siteId, keys.tallyShardOf(ideaId)).SK === shardSk;
      if (inShard && !present.has(markerAttribute(ideaId))) gone.push(ideaId);
    }
  }
  if (gone.length > 0) return { kind: 'ideas-gone', ideaIds: gone };

  // A failed shard condition whose markers all exist cannot happen with a consistent old image; and
  // any other code (ValidationError, ...) is a bug, not a client error.
  if (reasons.some((_, i) => failed(i))) return { kind: 'contended' };
  throw err;
}
