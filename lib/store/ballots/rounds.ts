/**
 * The storage side of a vote round (docs/data-model.md "Votes"): what a round reads, planned so the
 * request reads it with its site and caller in ONE consistent BatchGet (lib/store/db/prefetch.ts), and
 * the plan applied as ONE TransactWriteItems:
 *
 *   [0]      the user's ballot: Put (or a ConditionCheck when nothing changes), conditioned on the
 *            version it was read at;
 *   [1]      when it changes, the vote log entry of its new state (lib/votes/seal.ts): one small Put;
 *   [2..n]   one Update per idea whose count changes (lib/store/ideas/tallies.ts): ADD its net change,
 *            requiring, for an idea the round adds a vote to, that it is still votable;
 *   [..]     with an Idempotency-Key: the stored response, conditioned on not existing yet;
 *   [last]   with `userMustExist` (the OpenStad import): a ConditionCheck that the user is still there
 *            and not anonymized.
 *
 * DynamoDB allows 100 actions per transaction. A round changing more ideas than fit (a `replace` of
 * 60 votes by 60 others, a first round of 100 likes) commits the ballot with the changes that fit,
 * checks first, and records the rest on the ballot (`pendingTallies`); they follow in further
 * transactions, each advancing that journal once (exactly once, whoever finishes it). The ballot, and
 * so the round, is all-or-nothing; only the counts of such a round lag, for as long as those writes take.
 */
import { failedConditions, type CancellationReason } from '#lib/store/db/failures';
import { ballotPutItem, ballotUnchangedItem, getBallot, type BallotItem, type BallotSeal, type BallotVote } from '#lib/store/ballots/ballots';
import { finishPendingTallies, journalSteps } from '#lib/store/ballots/journal';
import { MAX_TRANSACTION_ACTIONS } from '#lib/store/db/limits';
import { getIdempotencyRecord, idempotencyPutItem, type IdempotencyRecord } from '#lib/store/ballots/idempotency';
import { fitsInItem } from '#lib/store/db/storable';
import { consistently, joinPlans, type ReadPlan } from '#lib/store/db/prefetch';
import { readIdeaTallies, tallyChangeItem, type Tally } from '#lib/store/ideas/tallies';
import { transact } from '#lib/store/db/transact';
import { TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';
import { logEntryPut } from '#lib/store/vote-log/log';

/**
 * The keys a round reads, for the request's first BatchGet: the ballot, the stored answer of its
 * Idempotency-Key and the tally items of its ideas. Consistent: the round's conditional write is
 * planned from them.
 */
export function roundReadPlan(siteId: number, userId: number, ideaIds: readonly number[], idempotency?: { scope: string; key: string }): ReadPlan {
  return consistently(
    joinPlans(
      getBallot.plan(siteId, userId),
      idempotency ? getIdempotencyRecord.plan(siteId, idempotency.scope, idempotency.key) : undefined,
      readIdeaTallies.plan(siteId, [...new Set(ideaIds)]),
    )!,
  );
}

interface RoundStart {
  ballot: BallotItem | undefined;
  stored: IdempotencyRecord | undefined;
}

/**
 * The ballot and the stored answer a round is planned from, read consistently (from the request's
 * prefetch on a first attempt: no request). A ballot with an unfinished journal is finished first.
 * The round's ideas are read after the checks these allow (`readIdeaTallies`, consistent).
 */
export async function readRoundStart(
  siteId: number,
  userId: number,
  idempotency: { scope: string; key: string } | undefined,
  now: Date,
): Promise<RoundStart> {
  const [ballot, stored] = await Promise.all([
    getBallot(siteId, userId, true),
    idempotency ? getIdempotencyRecord(siteId, idempotency.scope, idempotency.key, now) : undefined,
  ]);
  if (ballot?.pendingTallies) {
    await finishPendingTallies(siteId, userId, ballot.pendingTallies);
    return { ballot: await getBallot(siteId, userId, true), stored };
  }
  return { ballot, stored };
}

/** One idea's net change in a round. */
export interface TallyChange {
  ideaId: number;
  change: Tally;
  /** The round adds a vote to this idea: it must still be votable when the round commits. */
  addsVotes: boolean;
}

interface RoundWrite {
  siteId: number;
  userId: number;
  /** The ballot version the round was planned from; undefined when the user had no ballot. */
  readVersion: number | undefined;
  /** The user's whole vote set after the round; undefined when the round changes nothing. */
  votes: Record<string, BallotVote> | undefined;
  /** The vote log entry of the new state, sealed by the domain; required with `votes`. */
  seal?: BallotSeal | undefined;
  /** The ballot's vote sequence after the round (vote ids, lib/votes/ids.ts). */
  voteSeq?: number | undefined;
  changes: readonly TallyChange[];
  idempotency?: { scope: string; key: string; record: Omit<IdempotencyRecord, 'ttl'>; ttlSeconds: number } | undefined;
  /**
   * The round commits only while its user is on the site and not anonymized: a ConditionCheck on the
   * user item in the same transaction (the OpenStad import, whose ballots are written long after it
   * read the user; a request's caller was resolved just before).
   */
  userMustExist?: boolean | undefined;
  now: Date;
}

type RoundOutcome =
  /** `lateGone`: ideas deleted while the round committed, whose votes it must take out again (removeLateVote). */
  | { kind: 'committed'; lateGone?: number[] }
  /** Another write changed the ballot since it was read (a concurrent round of the same user). */
  | { kind: 'ballot-changed' }
  /** These ideas the round adds votes to were deleted since the round was planned. */
  | { kind: 'ideas-gone'; ideaIds: number[] }
  /** A concurrent request with the same Idempotency-Key committed first. */
  | { kind: 'duplicate' }
  /** A count the round removes from is not there (an idea deleted meanwhile): plan again. */
  | { kind: 'contended' }
  /** The ballot would pass DynamoDB's 400 KB item limit (thousands of votes held): nothing was sent. */
  | { kind: 'ballot-too-large' };

/** With `userMustExist`: the user was deleted or anonymized; nothing was written. */
type UserGone = { kind: 'user-gone' };

export async function commitRound(write: RoundWrite & { userMustExist: true }): Promise<RoundOutcome | UserGone>;
export async function commitRound(write: RoundWrite): Promise<RoundOutcome>;
export async function commitRound(write: RoundWrite): Promise<RoundOutcome | UserGone> {
  const { siteId, userId, readVersion } = write;
  const now = write.now.toISOString();
  const idempotencyItem = write.idempotency
    ? idempotencyPutItem(siteId, write.idempotency.scope, write.idempotency.key, write.idempotency.record, write.idempotency.ttlSeconds, write.now)
    : undefined;

  const changing = write.votes !== undefined && write.seal !== undefined;
  // Checks first: every change that adds a vote is in the first transaction, with its condition.
  const ordered = [...write.changes].sort((a, b) => Number(b.addsVotes) - Number(a.addsVotes));
  const userCheck = write.userMustExist
    ? {
        ConditionCheck: {
          TableName: TABLE,
          Key: userKeys.user(siteId, userId),
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#anonymized)',
          ExpressionAttributeNames: { '#anonymized': 'anonymizedAt' },
        },
      }
    : undefined;
  const room = MAX_TRANSACTION_ACTIONS - 1 - (changing ? 1 : 0) - (idempotencyItem ? 1 : 0) - (userCheck ? 1 : 0);
  const first = ordered.slice(0, room);
  const later = journalSteps(ordered.slice(room));

  const ballotItem = !changing
    ? ballotUnchangedItem(siteId, userId, readVersion)
    : ballotPutItem(siteId, userId, write.votes!, readVersion, now, write.seal!, {
        ...(write.voteSeq !== undefined ? { voteSeq: write.voteSeq } : {}),
        ...(later.length > 0 ? { pendingTallies: { next: 0, steps: later } } : {}),
      });
  const entryItem = changing ? logEntryPut(write.seal!.entry) : undefined;
  if (ballotItem.Put && !fitsInItem(ballotItem.Put.Item as Record<string, unknown>)) return { kind: 'ballot-too-large' };
  if (entryItem && !fitsInItem(entryItem.Put.Item as Record<string, unknown>)) return { kind: 'ballot-too-large' };
  const changeItems = first.map((c) => tallyChangeItem(siteId, c.ideaId, c.change, { addsVotes: c.addsVotes }));
  // The user's check last, so the indexes `classify` reads stay as they are.
  const items = [ballotItem, ...(entryItem ? [entryItem] : []), ...changeItems, ...(idempotencyItem ? [idempotencyItem] : []), ...(userCheck ? [userCheck] : [])];

  try {
    await transact(items);
  } catch (err) {
    // Conflicts and throttling were retried by the store's policy (lib/store/db/retry.ts), then 409/503.
    const reasons = failedConditions(err);
    if (!reasons) throw err;
    if (userCheck && reasons[items.length - 1]?.Code === 'ConditionalCheckFailed') return { kind: 'user-gone' };
    return classify(reasons, entryItem ? 2 : 1, first, idempotencyItem !== undefined, err);
  }
  if (later.length === 0) return { kind: 'committed' };
  await finishPendingTallies(siteId, userId, { next: 0, steps: later });
  // The votes added without their "still votable" check (no room for it in the first transaction): an
  // idea deleted meanwhile may have had its cascade pass this ballot before the round committed.
  const unchecked = ordered.slice(room).filter((c) => c.addsVotes).map((c) => c.ideaId);
  if (unchecked.length === 0) return { kind: 'committed' };
  const still = await readIdeaTallies(siteId, unchecked, { consistent: true });
  const lateGone = unchecked.filter((id) => still.get(id)?.gone !== false);
  return lateGone.length > 0 ? { kind: 'committed', lateGone } : { kind: 'committed' };
}

/** `offset`: where the tally changes start among the items (after the ballot and its entry). */
function classify(reasons: CancellationReason[], offset: number, changes: readonly TallyChange[], hasIdempotency: boolean, err: unknown): RoundOutcome {
  const failed = (i: number) => reasons[i]?.Code === 'ConditionalCheckFailed';
  if (hasIdempotency && failed(offset + changes.length)) return { kind: 'duplicate' };
  // A stale ballot is checked before vanished ideas: the re-planned round may no longer add them.
  // (The entry's condition, a receipt not yet in the log, fails only with the ballot's: a replay.)
  if (failed(0) || (offset === 2 && failed(1))) return { kind: 'ballot-changed' };
  const gone = changes.filter((c, i) => c.addsVotes && failed(offset + i)).map((c) => c.ideaId);
  if (gone.length > 0) return { kind: 'ideas-gone', ideaIds: gone };
  if (changes.some((_, i) => failed(offset + i))) return { kind: 'contended' };
  // Any other code (ValidationError, ...) is a bug, not a client error.
  throw err;
}
