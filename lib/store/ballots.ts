/**
 * Ballots: one item per user per site (`SK = BALLOT#<userId>`) holding the user's whole current vote
 * set. A vote round rewrites the ballot (conditioned on its `version`) and updates the tally shards in
 * one transaction, so a round is all-or-nothing and tallies always equal the votes held.
 * The voting feature adds the writes; reads used elsewhere (an idea's `userVote`) live here too.
 */
import { getItem } from '#lib/store/read';
import { planOf } from '#lib/store/prefetch';
import { DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { idFromSk, keys, sitePk } from '#lib/store/keys';
import { queryAll } from '#lib/store/query';
import { tallyChangeItem, tallyDeleteKey, type TransactItem } from '#lib/store/tallies';
import { finishPendingTallies, type PendingTallies } from '#lib/store/ballot-journal';
import { recordReader } from '#lib/store/codec';
import { storedBallot, storedBallotView, type StoredBallot, type StoredBallotVote } from '#schemas/stored/ballot';
import { batchDelete } from '#lib/store/batch';
import { conditionFailed } from '#lib/store/failures';
import { jitteredDelayMs, RETRY_POLICY } from '#lib/store/retry';
import { conflict } from '#lib/errors';
import { logEntryPut, type LogEntryItem } from '#lib/store/vote-log';

/**
 * A held vote: its id (lib/votes/ids.ts; older votes: from the retired `vote` counter), opinion, time,
 * and the budget and theme of its idea when it was cast (issue 17: a later round that keeps this vote
 * checks its limits without reading the idea again; absent on votes cast before, read then).
 */
export type BallotVote = StoredBallotVote;

/**
 * The user's whole vote set on a site (votes keyed by idea id, as a string: DynamoDB map keys are
 * strings), its `version` (every write increments it and is conditioned on the one it read), the vote
 * record's seal (issue 16: `hash`, `prevHash`, `prevUpdatedAt`), `voteSeq` (votes ever added) and
 * `pendingTallies` (a round's counts still to apply, lib/store/ballot-journal.ts).
 */
export type BallotItem = StoredBallot;

/** Every ballot read is checked (lib/store/codec.ts); projected reads against the view of it. */
export const ballotOf = recordReader('ballot', storedBallot);
export const ballotViewOf = recordReader('ballot', storedBallotView) as (item: Record<string, unknown>) => BallotItem;

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

/** Seals the state a write produces from the ballot as read (the domain's `sealBallot`). */
export type BallotSealer = (
  previous: { hash?: string | undefined } | undefined,
  next: { siteId: number; userId: number; version: number; votes: Record<string, BallotVote>; writtenAt: string },
) => BallotSeal;

const ballotKeys = (siteId: number, userId: number) => [keys.ballot(siteId, userId)];

/**
 * A user's ballot (`.plan`: read ahead for `includeUserVote` and by a vote round).
 * @param consistent a strongly consistent read, for a read that a conditional write will depend on.
 */
export const getBallot = Object.assign(
  async (siteId: number, userId: number, consistent = false): Promise<BallotItem | undefined> => {
    const [key] = ballotKeys(siteId, userId);
    const item = await getItem(key!, { consistent });
    return item ? ballotOf(item) : undefined;
  },
  { plan: planOf(ballotKeys) },
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
  const item: BallotItem & Record<string, unknown> = {
    ...keys.ballot(siteId, userId),
    ...keys.ownedBy(userId, 'BALLOT', siteId),
    siteId,
    userId,
    votes,
    version: (readVersion ?? 0) + 1,
    updatedAt: now,
    hash: seal.hash,
    prevHash: seal.prevHash,
    ...extra,
  };
  return { Put: { TableName: TABLE, Item: item, ...unchangedSince(readVersion) } };
}

/** Checks, without writing, that the ballot is still as it was read (a round that changes nothing). */
export function ballotUnchangedItem(siteId: number, userId: number, readVersion: number | undefined): TransactItem {
  return { ConditionCheck: { TableName: TABLE, Key: keys.ballot(siteId, userId), ...unchangedSince(readVersion) } };
}

/** Highest user id a ballot key can hold (ids are padded to 10 digits in keys). */
const MAX_KEY_ID = 9_999_999_999;

/**
 * One Query page of a site's ballots in user id order, starting at the ballot of `fromUserId`
 * (inclusive), at most `limit` ballots. With `ideaId`, only ballots holding a vote on that idea are
 * returned (a FilterExpression: `limit` counts the ballots read, so a page may return fewer).
 * `more` is true when DynamoDB stopped before the end of the site's ballots.
 */
export async function queryBallots(
  siteId: number,
  options: { fromUserId: number; limit: number; ideaId?: number | undefined },
): Promise<{ ballots: BallotItem[]; more: boolean; lastUserId: number | undefined }> {
  const filter =
    options.ideaId === undefined
      ? {}
      : {
          FilterExpression: 'attribute_exists(#votes.#idea)',
          ExpressionAttributeNames: { '#votes': 'votes', '#idea': String(options.ideaId) },
        };
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': sitePk(siteId),
        ':from': keys.ballot(siteId, options.fromUserId).SK,
        ':to': keys.ballot(siteId, MAX_KEY_ID).SK,
      },
      ...filter,
      Limit: options.limit,
    }),
  );
  const last = out.LastEvaluatedKey as { SK?: string } | undefined;
  return {
    ballots: (out.Items ?? []).map(ballotOf),
    more: last !== undefined,
    lastUserId: last?.SK === undefined ? undefined : idFromSk(last.SK),
  };
}

/**
 * Removes every vote on one idea from every ballot of the site, each ballot together with its tally
 * change in one transaction (tallies stay exact), then deletes the idea's tally item.
 * Part of deleting an idea, AFTER the transaction that made it a tombstone and its tally gone
 * (`tallyGoneItem`), so no new vote can land on it meanwhile. Safe to retry: a ballot that no
 * longer holds the idea is skipped.
 * Cost: one Query page per 1 MB of ballots holding the idea, plus one transaction per such ballot
 * (a delete cascade is proportional to the votes it removes; list and vote calls stay constant).
 */
export async function removeIdeaFromBallots(siteId: number, ideaId: number, seal: BallotSealer): Promise<void> {
  const found = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'attribute_exists(#votes.#idea)',
    ExpressionAttributeNames: { '#votes': 'votes', '#idea': String(ideaId) },
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': keys.ballotPrefix },
    // Strongly consistent: a ballot written just before the idea was deleted must not be missed, or
    // its vote (and its tally counter) would outlive the idea.
    ConsistentRead: true,
  });
  for (const ballotItem of found) await removeVoteOnIdea(siteId, ballotOf(ballotItem), ideaId, seal);
  await batchDelete([tallyDeleteKey(siteId, ideaId)]);
}

/**
 * Takes the vote on `ideaId` out of one ballot (as read), with its count, in one transaction; re-reads
 * and retries while the ballot moves. Nothing to do when the ballot holds no such vote, so it is safe
 * to repeat (the delete cascade and a round that finds its idea deleted may both run it).
 */
export async function removeVoteOnIdea(siteId: number, read: BallotItem, ideaId: number, seal: BallotSealer): Promise<void> {
  let ballot: BallotItem | undefined = read;
  // A round that stopped halfway counts its votes first, so this removal is taken from a full count.
  if (ballot.pendingTallies) {
    await finishPendingTallies(siteId, ballot.userId, ballot.pendingTallies);
    ballot = await getBallot(siteId, ballot.userId, true);
  }
  for (let attempt = 0; ballot?.votes?.[String(ideaId)]; attempt++) {
    if (attempt >= RETRY_POLICY.maxAttempts) throw conflict(`The votes of user ${read.userId} kept changing while idea ${ideaId} was being removed; please retry`);
    const vote: BallotVote = ballot.votes[String(ideaId)]!;
    const { [String(ideaId)]: _removed, ...rest } = ballot.votes;
    const now = new Date().toISOString();
    const sealed = seal(ballot, { siteId, userId: ballot.userId, version: ballot.version + 1, votes: rest, writtenAt: now });
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: TABLE,
                Key: keys.ballot(siteId, ballot.userId),
                // The new state's log entry goes with it, and its mac onto the ballot.
                UpdateExpression: 'REMOVE #votes.#idea SET #version = #version + :one, #updatedAt = :now, #hash = :hash, #prevHash = :prevHash',
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: {
                  '#votes': 'votes',
                  '#idea': String(ideaId),
                  '#version': 'version',
                  '#updatedAt': 'updatedAt',
                  '#hash': 'hash',
                  '#prevHash': 'prevHash',
                },
                ExpressionAttributeValues: {
                  ':one': 1,
                  ':version': ballot.version,
                  ':now': now,
                  ':hash': sealed.hash,
                  ':prevHash': sealed.prevHash,
                },
              },
            },
            logEntryPut(sealed.entry),
            // Unconditional: the tally of an idea being deleted stays until its cascade ends.
            tallyChangeItem(siteId, ideaId, { [vote.opinion]: -1 }, { addsVotes: false, unconditional: true }),
          ],
        }),
      );
      break;
    } catch (err) {
      if (!conditionFailed(err)) throw err;
      // The ballot moved (a vote round of its user): re-read after a jittered pause, so concurrent
      // writers do not collide again in lockstep. (Busy items: the store's retry policy.)
      await new Promise((r) => setTimeout(r, jitteredDelayMs(attempt + 1)));
      ballot = await getBallot(siteId, ballot.userId, true);
    }
  }
}

/**
 * A vote that reached a ballot after its idea's delete cascade had passed that ballot (a large round,
 * whose later counts ride in the journal, committed while the idea was being deleted): taken out again,
 * with its count, and the count item the journal's ADD may have made of a deleted tally goes too.
 */
export async function removeLateVote(siteId: number, userId: number, ideaId: number, seal: BallotSealer): Promise<void> {
  const ballot = await getBallot(siteId, userId, true);
  if (ballot) await removeVoteOnIdea(siteId, ballot, ideaId, seal);
  try {
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: tallyDeleteKey(siteId, ideaId), ConditionExpression: 'attribute_not_exists(tallyOf)' }));
  } catch (err) {
    if (!conditionFailed(err)) throw err; // a real tally (the cascade is still running): it deletes it
  }
}
