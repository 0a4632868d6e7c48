/**
 * Ballots: one item per user per site (`SK = BALLOT#<userId>`) holding the user's whole current vote
 * set. A vote round rewrites the ballot (conditioned on its `version`) and updates the tally shards in
 * one transaction, so a round is all-or-nothing and tallies always equal the votes held.
 * The voting feature adds the writes; reads used elsewhere (an idea's `userVote`) live here too.
 */
import { getItem } from '#lib/store/db/read';
import { planOf } from '#lib/store/db/prefetch';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { MAX_KEY_ID, sitePk } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { queryAll } from '#lib/store/db/query';
import { tallyChangeItem, tallyDeleteKey } from '#lib/store/ideas/tallies';
import type { PendingTallies } from '#lib/store/ballots/journal';
import { ballotCodec } from '#lib/store/ballots/codec';
import type { StoredBallot, StoredBallotVote } from '#schemas/stored/ballot';
import { conditionFailed } from '#lib/store/db/failures';
import { update, withCondition } from '#lib/store/db/update';
import { transact, type TransactItem } from '#lib/store/db/transact';
import { logEntryPut, type LogEntryItem } from '#lib/store/vote-log/log';
import { logger } from '#lib/log/logger';
import { itemKeyOf } from '#lib/store/db/codec';

/**
 * A held vote: its id (lib/votes/ids.ts; older votes: from the retired `vote` counter), opinion, time,
 * and the budget and theme of its idea when it was cast (a later round that keeps this vote
 * checks its limits without reading the idea again; absent on votes cast before, read then).
 */
export type BallotVote = StoredBallotVote;

/**
 * The user's whole vote set on a site (votes keyed by idea id, as a string: DynamoDB map keys are
 * strings), its `version` (every write increments it and is conditioned on the one it read), the vote
 * record's seal (`hash`, `prevHash`, `prevUpdatedAt`), `voteSeq` (votes ever added) and
 * `pendingTallies` (a round's counts still to apply, lib/store/ballots/journal.ts).
 */
export type BallotItem = StoredBallot;

/** Every ballot read is checked (lib/store/ballots/codec.ts); projected reads against the view of it. */
const ballotOf = ballotCodec.fromItem;
export { ballotViewOf } from '#lib/store/ballots/codec';

/**
 * The ballots among items read whole, for every read that counts or shows votes (results, exports,
 * the vote list, a voter's own vote, their activity and export): each checked against the ballot's
 * schema, as verify-votes checks it, and held to be stored under its own ballot key (its site's
 * partition, its user's `BALLOT#<u>`). An item that fails either (a writer with table access put it
 * there: a corrupt ballot, a copy under another key) counts nowhere and shows nowhere, never a 500:
 * one such item must not take a site's list or results, or a person's own data, down. It is logged as
 * a warning by its key and a problem that holds no stored text, and verify-votes reports it
 * (docs/results.md "Malformed items").
 */
export function wellFormedBallots(items: readonly Record<string, unknown>[]): BallotItem[] {
  return items.flatMap((item) => {
    const checked = ballotCodec.check(item);
    const problem = 'record' in checked ? misplacement(item, checked.record) : checked.malformed.problem;
    if (problem === undefined && 'record' in checked) return [checked.record];
    logger.warn('a malformed item under a ballot key, left out', { item: itemKeyOf(item), problem });
    return [];
  });
}

/** Why a well-formed ballot is not where its own key says (undefined: it is). */
function misplacement(item: Record<string, unknown>, ballot: BallotItem): string | undefined {
  const own = ballotKeys.ballot(ballot.siteId, ballot.userId);
  return item['PK'] === own.PK && ballotKeys.isBallotOf(ballot.siteId, ballot.userId, String(item['SK'])) ? undefined : "not stored under its user's ballot key";
}

/**
 * The vote log entry of a ballot state (lib/votes/seal.ts, docs/results.md "The vote record"): the
 * ballot keeps the entry's mac as `hash` (its receipt, and what the next version chains to) and the
 * previous one as `prevHash`; the entry is Put in the same transaction as the state it seals.
 */
export interface BallotSeal {
  hash: string;
  prevHash: string;
  entry: LogEntryItem;
}

const keysOfBallot = (siteId: number, userId: number) => [ballotKeys.ballot(siteId, userId)];

/**
 * A user's ballot (`.plan`: read ahead for `includeUserVote` and by a vote round).
 * @param consistent a strongly consistent read, for a read that a conditional write will depend on.
 */
export const getBallot = Object.assign(
  async (siteId: number, userId: number, consistent = false): Promise<BallotItem | undefined> => {
    const [key] = keysOfBallot(siteId, userId);
    const item = await getItem(key!, { consistent });
    return item ? ballotOf(item) : undefined;
  },
  { plan: planOf(keysOfBallot) },
);

/**
 * A user's ballot for a read that shows it (the vote list, `includeUserVote`) or clears it for its
 * owner (anonymization): undefined when there is none or the item is malformed (`wellFormedBallots`).
 * `.plan`: the same key as `getBallot`'s.
 */
export const getShownBallot = Object.assign(
  async (siteId: number, userId: number, consistent = false): Promise<BallotItem | undefined> => {
    const [key] = keysOfBallot(siteId, userId);
    const item = await getItem(key!, { consistent });
    return item ? wellFormedBallots([item])[0] : undefined;
  },
  { plan: getBallot.plan },
);

/** The condition that a ballot is still as it was read (`readVersion` undefined: it did not exist). */
function unchangedSince(readVersion: number | undefined) {
  return readVersion === undefined
    ? { ConditionExpression: 'attribute_not_exists(PK)' }
    : {
        ConditionExpression: '#version = :readVersion',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':readVersion': readVersion },
      };
}

/**
 * The transaction item that writes a user's whole vote set, conditioned on the version it was planned
 * from. A ballot that ends empty is kept (with `votes: {}`) rather than deleted: its version must keep
 * counting up, or a stale round that read version n of a deleted ballot could commit against a
 * re-created ballot that has reached version n again (ABA) and move the tallies from the wrong state.
 */
export function ballotPutItem(
  siteId: number,
  userId: number,
  votes: Record<string, BallotVote>,
  readVersion: number | undefined,
  now: string,
  seal: BallotSeal,
  extra: { voteSeq?: number; pendingTallies?: PendingTallies } = {},
): TransactItem {
  const rejected = Object.values(votes).filter((vote) => vote.review?.rejected).length;
  const ballot: BallotItem = {
    siteId,
    userId,
    votes,
    version: (readVersion ?? 0) + 1,
    updatedAt: now,
    hash: seal.hash,
    prevHash: seal.prevHash,
    // How many of its votes a moderator rejected: a ballot holding only those is no voter (the Pabulib export).
    ...(rejected > 0 ? { rejected } : {}),
    ...extra,
  };
  return { Put: { TableName: TABLE, Item: ballotCodec.toItem(ballot), ...unchangedSince(readVersion) } };
}

/** Checks, without writing, that the ballot is still as it was read (a round that changes nothing). */
export function ballotUnchangedItem(siteId: number, userId: number, readVersion: number | undefined): TransactItem {
  return { ConditionCheck: { TableName: TABLE, Key: ballotKeys.ballot(siteId, userId), ...unchangedSince(readVersion) } };
}

/** Where a Query page of the ballot range starts: at a user's ballot (inclusive), or right after a key read. */
type BallotRangeStart = { fromUserId: number } | { afterSk: string };

/**
 * One Query page of a site's ballots in user id order, from `start`, at most `limit` items read. With
 * `ideaId`, only ballots holding a vote on that idea are returned (a FilterExpression: `limit` counts
 * the items read, so a page may return fewer); a malformed item is left out too (`wellFormedBallots`).
 * `next`: where the following page starts, right past the last item read, whatever its key
 * (`ballotKeys.resumeAfter`); undefined when DynamoDB read to the end of the site's ballots.
 */
export async function queryBallots(
  siteId: number,
  options: { start: BallotRangeStart; limit: number; ideaId?: number | undefined },
): Promise<{ ballots: BallotItem[]; next: BallotRangeStart | undefined }> {
  const filter =
    options.ideaId === undefined
      ? {}
      : {
          FilterExpression: 'attribute_exists(#votes.#idea)',
          ExpressionAttributeNames: { '#votes': 'votes', '#idea': String(options.ideaId) },
        };
  const { start } = options;
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': sitePk(siteId),
        ':from': ballotKeys.ballot(siteId, 'fromUserId' in start ? start.fromUserId : 0).SK,
        ':to': ballotKeys.ballot(siteId, MAX_KEY_ID).SK,
      },
      ...('afterSk' in start ? { ExclusiveStartKey: { PK: sitePk(siteId), SK: start.afterSk } } : {}),
      ...filter,
      Limit: options.limit,
    }),
  );
  const last = out.LastEvaluatedKey as { SK?: unknown } | undefined;
  return {
    ballots: wellFormedBallots((out.Items ?? []) as Record<string, unknown>[]),
    next: last === undefined ? undefined : ballotKeys.resumeAfter(String(last.SK)),
  };
}

/**
 * Every ballot of the site holding a vote on `ideaId`: one Query page per 1 MB of ballots read, strongly
 * consistent, so a ballot written just before the idea was deleted is not missed (its vote, and its
 * tally counter, would outlive the idea).
 */
export async function ballotsHoldingIdea(siteId: number, ideaId: number): Promise<BallotItem[]> {
  const found = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'attribute_exists(#votes.#idea)',
    ExpressionAttributeNames: { '#votes': 'votes', '#idea': String(ideaId) },
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': ballotKeys.ballotPrefix },
    ConsistentRead: true,
  });
  return found.map(ballotOf);
}

/**
 * Takes the vote on `ideaId` out of one ballot as read, with its count, in one transaction: the ballot
 * conditioned on the version read (the new state's log entry goes with it), the tally unconditioned (the tally of an idea being deleted stays until its cascade
 * ends). 'changed': the ballot moved since it was read (nothing written).
 */
export async function removeVoteFromBallot(siteId: number, read: BallotItem, ideaId: number, seal: BallotSeal, now: string): Promise<'done' | 'changed'> {
  const vote = read.votes?.[String(ideaId)];
  if (!vote) return 'done';
  try {
    await transact([
      {
        Update: {
          TableName: TABLE,
          Key: ballotKeys.ballot(siteId, read.userId),
          ...withCondition(
            update({
              remove: [['votes', String(ideaId)]],
              increment: { version: 1, ...(vote.review?.rejected ? { rejected: -1 } : {}) },
              set: { updatedAt: now, hash: seal.hash, prevHash: seal.prevHash },
            }),
            { expression: '#version = :version', names: { '#version': 'version' }, values: { ':version': read.version } },
          ),
        },
      },
      logEntryPut(seal.entry),
      // A vote a moderator rejected is in no count: taking it out moves none.
      ...(vote.review?.rejected ? [] : [tallyChangeItem(siteId, ideaId, { [vote.opinion]: -1 }, { addsVotes: false, unconditional: true })]),
    ]);
    return 'done';
  } catch (err) {
    if (conditionFailed(err)) return 'changed';
    throw err;
  }
}

/**
 * What the journal's late ADD may have made of a deleted idea's tally: an item without `tallyOf`,
 * removed (a real tally is left for the idea's delete cascade, which removes it itself).
 */
export async function deleteStrayTally(siteId: number, ideaId: number): Promise<void> {
  try {
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: tallyDeleteKey(siteId, ideaId), ConditionExpression: 'attribute_not_exists(tallyOf)' }));
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}
