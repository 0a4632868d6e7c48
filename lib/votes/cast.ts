/**
 * POST /vote: one voting round, all-or-nothing (CONTRACT "Vote", docs/data-model.md "Votes").
 *
 *   access (401/403) -> body (400) -> [stored answer for the Idempotency-Key?] -> voting open (403)
 *   -> the round's tallies -> planRound (pure rules: 400/409) -> ONE transaction (ballot, the changed
 *   ideas' tallies, stored answer). The ballot, the stored answer and the first READ_AHEAD_IDEAS
 *   tallies come with the site and the caller in the request's ONE BatchGet (castReadPlan), so a round
 *   of up to that many ideas is two requests in all.
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
import type { Site } from '#lib/sites/site';
import type { BallotVote as StoredVote } from '#lib/store/ballots/ballots';
import { removeLateVote } from '#lib/votes/remove-votes';
import { MAX_BATCH_GET_KEYS } from '#lib/store/db/limits';
import type { IdempotencyRecord } from '#lib/store/ballots/idempotency';
import type { ReadPlan } from '#lib/store/db/prefetch';
import { readIdeaTallies, type IdeaTally } from '#lib/store/ideas/tallies';
import { commitRound, readRoundStart, roundReadPlan, type TallyChange } from '#lib/store/ballots/rounds';
import { assertVotingOpen, planRound } from '#lib/votes/index';
import type { CastVote, IdeaForVote, RoundPlan, VotesConfig } from '#lib/votes/index';
import { limitsReadIdeas } from '#schemas/vote-types';
import { invalidRound } from '#lib/votes/errors';
import { IDEMPOTENCY_TTL_SECONDS, idempotencyKeyOf, idempotencyScope, roundHash } from '#lib/votes/idempotency';
import { nextVoteIds } from '#lib/votes/ids';
import { receiptOf, storedRoundAnswer, toVoteRecord, votesOfBallot } from '#lib/votes/records';
import { sealBallot } from '#lib/votes/seal';
import type { VoteRecord } from '#schemas/votes';
import { REPLAN, withReplan, type Replan } from '#lib/store/db/replan';

interface CastInput {
  site: Site;
  caller: Caller;
  /** The body, validated at the edge (schemas/votes.ts castVotesBody). */
  round: CastVote[];
  idempotencyKey: string | undefined;
  clock?: () => Date;
}

interface CastResult {
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

/**
 * The tallies read ahead: as many as fill the request's first BatchGet beside the site, the caller, the
 * ballot and the stored answer, so a round of up to this many ideas is two requests in all. Bounded,
 * because this read happens before the site's Basic Auth, the caller's right to vote and the open/closed
 * check: a round those refuse costs at most this one BatchGet, never a read per idea its body names (a
 * body may name 500). A larger round reads the rest after the checks.
 */
export const READ_AHEAD_IDEAS = MAX_BATCH_GET_KEYS - 4;

/**
 * What a round will read, for the request's first BatchGet (with the site and the caller): the ballot,
 * the stored answer of its Idempotency-Key and the tallies of its first READ_AHEAD_IDEAS ideas.
 * Planned from the validated body: a body that fails its schema plans only the ballot (the round is
 * refused before anything else is read).
 */
export function castReadPlan(siteId: number, userId: number, round: readonly CastVote[] | undefined, headers: Record<string, string | undefined>): ReadPlan {
  const key = safeIdempotencyKey(headers);
  return roundReadPlan(
    siteId,
    userId,
    round ? [...new Set(round.map((entry) => entry.ideaId))].slice(0, READ_AHEAD_IDEAS) : [],
    key === undefined ? undefined : { scope: idempotencyScope(userId), key },
  );
}

function safeIdempotencyKey(headers: Record<string, string | undefined>): string | undefined {
  try {
    return idempotencyKeyOf(headers);
  } catch {
    return undefined; // the route answers 400 for it later, in its place
  }
}

export async function castVotes({ site, caller, round, idempotencyKey, clock = () => new Date() }: CastInput): Promise<CastResult> {
  authorizeVoter(caller, site);
  if (caller.kind !== 'user') throw forbidden('Votes are cast by site users');
  const userId = caller.userId;
  const config: VotesConfig = site.config.votes;
  const idempotency: Idempotency | undefined =
    idempotencyKey === undefined ? undefined : { scope: idempotencyScope(userId), key: idempotencyKey, hash: roundHash(round) };
  const roundIdeaIds = [...new Set(round.map((entry) => entry.ideaId))];

  return withReplan(async (attempt): Promise<CastResult | Replan> => {
    const now = clock();
    // First attempt: from the request's prefetch (no request). The stored answer is looked up on every
    // attempt: a duplicate may have committed while this one was backing off.
    const state = await readRoundStart(site.id, userId, idempotency, now);
    if (state.stored) return replay(state.stored, idempotency!, userId);
    if (attempt === 1) assertVotingOpen(config, now);

    const held = state.ballot?.votes ?? {};
    const existing = votesOfBallot(held);
    // Read only now, after the checks: a refused round reads none beyond those read ahead.
    const roundIdeas = await readIdeaTallies(site.id, roundIdeaIds, { consistent: true });
    const ideas = await ideasForRules(site.id, config, roundIdeas, held);
    const plan = planRound({ config, existing, round, ideas });

    const unchanged = plan.added.length === 0 && plan.removed.length === 0;
    // Nothing to write and no answer to store: the consistent read is the result.
    if (unchanged && !idempotency) return { records: existing.map((v) => toVoteRecord(v, userId, true, receiptOf(state.ballot))), replayed: false };

    // Vote ids from the ballot's own sequence: no counter on the hot path (lib/votes/ids.ts).
    const ids = nextVoteIds(userId, state.ballot?.voteSeq, plan.added.length);
    // Budget and theme copies only where limits read them (a likes or count ballot stays small).
    const votes = nextVoteSet(plan, ids.ids, now.toISOString(), limitsReadIdeas(config.voteType) ? ideas : new Map());

    const seal = unchanged ? undefined : sealBallot(state.ballot, { siteId: site.id, userId, version: (state.ballot?.version ?? 0) + 1, votes });
    const outcome = await commitRound({
      siteId: site.id,
      userId,
      readVersion: state.ballot?.version,
      votes: unchanged ? undefined : votes,
      // The vote record: the new state's log entry, in the same transaction.
      seal,
      voteSeq: ids.seq,
      changes: tallyChanges(plan),
      ...(idempotency
        ? {
            idempotency: {
              scope: idempotency.scope,
              key: idempotency.key,
              record: { requestHash: idempotency.hash, response: { votes, receipt: seal?.hash ?? receiptOf(state.ballot) }, createdAt: now.toISOString() },
              ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
            },
          }
        : {}),
      now,
    });

    switch (outcome.kind) {
      case 'committed': {
        // A large round's idea deleted while it committed: its vote goes again, as the cascade would have taken it.
        for (const ideaId of outcome.lateGone ?? []) await removeLateVote(site.id, userId, ideaId);
        const gone = new Set(outcome.lateGone ?? []);
        const receipt = seal?.hash ?? receiptOf(state.ballot);
        return { records: votesOfBallot(votes).filter((v) => !gone.has(v.ideaId)).map((v) => toVoteRecord(v, userId, true, receipt)), replayed: false };
      }
      case 'duplicate':
        // A concurrent request with the same key won: the next attempt reads and answers what it stored.
        return REPLAN;
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
        return REPLAN;
      case 'ballot-too-large':
        throw invalidRound([{ path: '', message: `You hold ${Object.keys(votes).length} votes on this site, more than one ballot can keep; remove some before adding more` }]);
    }
  }, () => conflict('Your vote could not be stored because of many simultaneous changes; please retry'));
}

/** Each idea's net change, and whether the round adds a vote to it (then it must still be votable). */
function tallyChanges(plan: RoundPlan): TallyChange[] {
  // A rejected ballot's kept votes counted again add to their ideas like new votes.
  const adding = new Set([...plan.added, ...(plan.clearsRejection?.recounted ?? [])].map((v) => v.ideaId));
  const changes: TallyChange[] = [...plan.tallyDeltas].map(([ideaId, change]) => ({ ideaId, change, addsVotes: adding.has(ideaId) }));
  for (const ideaId of adding) if (!plan.tallyDeltas.has(ideaId)) changes.push({ ideaId, change: {}, addsVotes: true });
  return changes;
}

/**
 * The ideas the rules need: those of the round (their tally items, read with the round) and, when
 * `merge` keeps earlier votes under budget or theme limits, those of the held votes, from the copies
 * the ballot keeps of them (votes cast before it kept copies: their tally items, one more read).
 */
async function ideasForRules(
  siteId: number,
  config: VotesConfig,
  roundIdeas: ReadonlyMap<number, IdeaTally>,
  held: Record<string, StoredVote>,
): Promise<Map<number, IdeaForVote>> {
  const ideas = new Map<number, IdeaForVote>();
  for (const [id, tally] of roundIdeas) if (!tally.gone) ideas.set(id, { id, budget: tally.budget, theme: tally.theme });
  const heldMatter = config.withExisting === 'merge' && limitsReadIdeas(config.voteType);
  if (!heldMatter) return ideas;
  const withoutCopies: number[] = [];
  for (const [key, vote] of Object.entries(held)) {
    const id = Number(key);
    if (ideas.has(id)) continue;
    if (vote.budget !== undefined && vote.theme !== undefined) ideas.set(id, { id, budget: vote.budget, theme: vote.theme });
    else withoutCopies.push(id);
  }
  if (withoutCopies.length === 0) return ideas;
  for (const [id, tally] of await readIdeaTallies(siteId, withoutCopies, { consistent: true })) {
    if (!tally.gone) ideas.set(id, { id, budget: tally.budget, theme: tally.theme });
  }
  return ideas;
}

/**
 * The ballot after the round: kept votes as they were, new ones with `ids` in plan order, each with
 * the copies of its idea that a later round's limits need.
 */
function nextVoteSet(plan: RoundPlan, ids: readonly number[], createdAt: string, ideas: ReadonlyMap<number, IdeaForVote>): Record<string, StoredVote> {
  const votes: Record<string, StoredVote> = {};
  let next = 0;
  for (const vote of plan.next) {
    const idea = ideas.get(vote.ideaId);
    const copies = idea ? { budget: idea.budget, theme: idea.theme } : {};
    // A kept vote keeps a moderator's decision on it (a like; or a ballot sent again unchanged), unless
    // the round changes a rejected ballot, which then counts whole (lib/votes/round.ts).
    votes[String(vote.ideaId)] = vote.keep
      ? { id: vote.keep.id, opinion: vote.keep.opinion, createdAt: vote.keep.createdAt, ...copies, ...(vote.keep.review && !plan.clearsRejection ? { review: vote.keep.review } : {}) }
      : { id: ids[next++]!, opinion: vote.opinion, createdAt, ...copies };
  }
  return votes;
}

function replay(stored: IdempotencyRecord, idempotency: Idempotency, userId: number): CastResult {
  if (stored.requestHash !== idempotency.hash) {
    throw conflict('This Idempotency-Key was already used for a different vote round');
  }
  const answer = storedRoundAnswer(stored.response);
  if (!answer) throw new Error('Stored vote answer has an unexpected shape');
  return { records: votesOfBallot(answer.votes).map((v) => toVoteRecord(v, userId, true, answer.receipt)), replayed: true };
}
