/**
 * POST /vote: one voting round, all-or-nothing (CONTRACT "Vote", docs/data-model.md "Votes").
 *
 *   access (401/403) -> body (400) -> [stored answer for the Idempotency-Key?] -> voting open (403)
 *   -> read ballot + ideas -> planRound (pure rules: 400/409) -> ONE transaction (ballot, tally shards,
 *   stored answer)
 *
 * Concurrency is optimistic: the ballot is written on the condition that its version is the one the
 * round was planned from. When another round of the same user got there first (or DynamoDB reports a
 * transaction conflict), the round is re-read and re-planned from the new state, a bounded number of
 * times with jittered back-off; then the client gets a 409 asking to retry.
 *
 * The idempotency check comes before the open/closed check on purpose: a client retrying a round that
 * was stored just before voting closed must get its answer, not a 403 that reads as "not counted".
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { conflict, forbidden } from '#lib/errors';
import type { Site } from '#lib/sites/service';
import { getBallot, type BallotVote as StoredVote } from '#lib/store/ballots';
import { nextIds } from '#lib/store/counters';
import { getIdempotencyRecord, type IdempotencyRecord } from '#lib/store/idempotency';
import { commitRound, readIdeasForVote, type VotableIdeaItem } from '#lib/store/vote-rounds';
import { assertVotingOpen, planRound } from '#lib/votes/index';
import type { CastVote, IdeaForVote, RoundPlan, VotesConfig } from '#lib/votes/index';
import { invalidRound } from '#lib/votes/errors';
import { IDEMPOTENCY_TTL_SECONDS, idempotencyScope, roundHash } from '#lib/votes/idempotency';
import { isStoredVoteMap, toVoteRecord, votesOfBallot } from '#lib/votes/records';
import { sealBallot } from '#lib/votes/seal';
import type { VoteRecord } from '#schemas/votes';
import { pauseBeforeReplan, REPLAN_ATTEMPTS } from '#lib/store/retry';


export interface CastInput {
  site: Site;
  caller: Caller;
  /** The body, validated at the edge (schemas/votes.ts castVotesBody). */
  round: CastVote[];
  idempotencyKey: string | undefined;
  clock?: () => Date;
}

export interface CastResult {
  /** The caller's votes on the site after the round. */
  records: VoteRecord[];
  /** True when this is the stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

interface Idempotency {
  scope: string;
  key: string;
  hash: string;
}

/**
 * May this caller vote here at all (401/403)? Run by the route before the body is validated, and again
 * by castVotes for any other caller of it.
 */
export function authorizeVoter(caller: Caller, site: Site | undefined): void {
  if (!site) throw forbidden('Votes are cast on a site');
  access.vote.cast(caller, site.config);
  // A service token acts as admin but is nobody: there is no user whose ballot the votes would be.
  if (caller.kind !== 'user') throw forbidden('Votes are cast by site users; a service token has no user to vote as');
}

export async function castVotes({ site, caller, round, idempotencyKey, clock = () => new Date() }: CastInput): Promise<CastResult> {
  authorizeVoter(caller, site);
  if (caller.kind !== 'user') throw forbidden('Votes are cast by site users');
  const userId = caller.userId;
  const config: VotesConfig = site.config.votes;
  const idempotency: Idempotency | undefined =
    idempotencyKey === undefined ? undefined : { scope: idempotencyScope(userId), key: idempotencyKey, hash: roundHash(round) };

  let reserved: { first: number; count: number } | undefined;
  for (let attempt = 0; attempt < REPLAN_ATTEMPTS; attempt++) {
    if (attempt > 0) await pauseBeforeReplan(attempt);
    const now = clock();
    const [stored, ballot] = await Promise.all([
      // Looked up on every attempt: a duplicate may have committed while this one was backing off.
      idempotency ? getIdempotencyRecord(site.id, idempotency.scope, idempotency.key, now) : undefined,
      getBallot(site.id, userId, true),
    ]);
    if (stored) return replay(stored, idempotency!, userId);
    if (attempt === 0) assertVotingOpen(config, now);

    const existing = votesOfBallot(ballot?.votes);
    const ideas = await readIdeas(site.id, config, round, existing.map((v) => v.ideaId));
    const plan = planRound({ config, existing, round, ideas });

    const unchanged = plan.added.length === 0 && plan.removed.length === 0;
    // Nothing to write and no answer to store: the consistent read is the result.
    if (unchanged && !idempotency) return { records: existing.map((v) => toVoteRecord(v, userId, true)), replayed: false };

    // One counter request for all new votes; ids reserved by an attempt that lost a race are reused.
    if (plan.added.length > 0 && (reserved === undefined || reserved.count < plan.added.length)) {
      reserved = { first: await nextIds('vote', plan.added.length), count: plan.added.length };
    }
    const votes = nextVoteSet(plan, reserved?.first ?? 0, now.toISOString());

    const outcome = await commitRound({
      siteId: site.id,
      userId,
      readVersion: ballot?.version,
      votes: unchanged ? undefined : votes,
      // The verifiable record (issue 16): the new state's chain hash, in the same transaction.
      seal: unchanged ? undefined : sealBallot(ballot, { userId, version: (ballot?.version ?? 0) + 1, votes }),
      tallyDeltas: plan.tallyDeltas,
      mustExist: plan.added.map((v) => v.ideaId),
      ...(idempotency
        ? {
            idempotency: {
              scope: idempotency.scope,
              key: idempotency.key,
              record: { requestHash: idempotency.hash, response: votes, createdAt: now.toISOString() },
              ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
            },
          }
        : {}),
      now,
    });

    switch (outcome.kind) {
      case 'committed':
        return { records: votesOfBallot(votes).map((v) => toVoteRecord(v, userId, true)), replayed: false };
      case 'duplicate': {
        // A concurrent request with the same key won: answer what it stored.
        const winner = await getIdempotencyRecord(site.id, idempotency!.scope, idempotency!.key, clock());
        if (winner) return replay(winner, idempotency!, userId);
        continue;
      }
      case 'ideas-gone':
        throw invalidRound(
          round.flatMap((entry, i) =>
            outcome.ideaIds.includes(entry.ideaId)
              ? [{ path: `[${i}].ideaId`, message: `Idea ${entry.ideaId} does not exist on this site` }]
              : [],
          ),
        );
      case 'ballot-changed':
      case 'contended':
        continue;
    }
  }
  throw conflict('Your vote could not be stored because of many simultaneous changes; please retry');
}

/**
 * The ideas the rules need: those of the round and, when `merge` keeps earlier votes under budget or
 * theme limits, those of the held votes too. One BatchGet (up to 100 ids).
 */
async function readIdeas(
  siteId: number,
  config: VotesConfig,
  round: readonly CastVote[],
  heldIdeaIds: readonly number[],
): Promise<Map<number, IdeaForVote>> {
  const heldMatter = config.withExisting === 'merge' && config.voteType !== 'likes' && config.voteType !== 'count';
  const ids = new Set([...round.map((e) => e.ideaId), ...(heldMatter ? heldIdeaIds : [])]);
  const items = await readIdeasForVote(siteId, [...ids]);
  return new Map(items.map((item) => [item.id, toIdeaForVote(item)]));
}

function toIdeaForVote(item: VotableIdeaItem): IdeaForVote {
  const theme = item.extraData?.theme;
  return {
    id: item.id,
    budget: typeof item.budget === 'number' ? item.budget : null,
    theme: typeof theme === 'string' ? theme : null,
  };
}

/** The ballot after the round: kept votes as they were, new ones numbered from `firstId` in plan order. */
function nextVoteSet(plan: RoundPlan, firstId: number, createdAt: string): Record<string, StoredVote> {
  const votes: Record<string, StoredVote> = {};
  let offset = 0;
  for (const vote of plan.next) {
    votes[String(vote.ideaId)] = vote.keep
      ? { id: vote.keep.id, opinion: vote.keep.opinion, createdAt: vote.keep.createdAt }
      : { id: firstId + offset++, opinion: vote.opinion, createdAt };
  }
  return votes;
}

function replay(stored: IdempotencyRecord, idempotency: Idempotency, userId: number): CastResult {
  if (stored.requestHash !== idempotency.hash) {
    throw conflict('This Idempotency-Key was already used for a different vote round');
  }
  if (!isStoredVoteMap(stored.response)) throw new Error('Stored vote answer has an unexpected shape');
  return { records: votesOfBallot(stored.response).map((v) => toVoteRecord(v, userId, true)), replayed: true };
}

