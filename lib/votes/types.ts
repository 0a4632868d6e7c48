/**
 * Shapes the pure voting rules work on. They are plain data so that the rules can be tested without
 * DynamoDB; the store and handlers translate their records to and from these.
 */

import type { VoteType } from '#schemas/vote-types';
import type { CastVote } from '#schemas/votes';
export type { VoteType };

export type WithExisting = 'error' | 'replace' | 'merge';

/** Limits of one entry of `config.votes.themes`; every limit is optional. */
export interface ThemeLimits {
  value: string;
  minIdeas?: number;
  maxIdeas?: number;
  minBudget?: number;
  maxBudget?: number;
}

/** `config.votes`, already merged with the defaults by the caller. */
export interface VotesConfig {
  isViewable: boolean;
  isActive: boolean | null;
  isActiveFrom?: string | null;
  isActiveTo?: string | null;
  requiredUserRole: 'member' | 'anonymous';
  withExisting: WithExisting;
  voteType: VoteType;
  voteValues: { label?: string; value: string }[];
  minIdeas: number;
  maxIdeas: number;
  minBudget?: number | null;
  maxBudget?: number | null;
  themes?: ThemeLimits[];
}

/** What the rules need to know of an idea. `theme` is the idea's `extraData.theme` when it is a string. */
export interface IdeaForVote {
  id: number;
  budget: number | null;
  theme: string | null;
}

/** One entry of a POST /vote body, in body order (the body's own schema, schemas/votes.ts). */
export type { CastVote } from '#schemas/votes';

/** A moderator's decision on a vote (lib/votes/review.ts); `by` null: a service token. */
interface VoteReview {
  rejected: boolean;
  by: number | null;
  at: string;
}

/** A vote the user holds now; `review` once a moderator rejected or reinstated it. */
export interface BallotVote {
  id: number;
  ideaId: number;
  opinion: string;
  createdAt: string;
  review?: VoteReview | undefined;
}

/** One vote of the user's vote set after a round; `keep` is the unchanged earlier record, if any. */
export interface PlannedVote {
  ideaId: number;
  opinion: string;
  keep?: BallotVote;
}

/** Per idea, per opinion, a vote count (or a net change of one). */
export type Tally = Map<number, Record<string, number>>;

/** What an accepted round changes. A rejected round throws an ApiError instead. */
export interface RoundPlan {
  /** The user's full vote set after the round. */
  next: PlannedVote[];
  /** Votes to create (in `next` without `keep`). */
  added: CastVote[];
  /** Held votes to delete (not kept in `next`). */
  removed: BallotVote[];
  /** Net tally change per idea and opinion; zero entries and empty ideas are left out. */
  tallyDeltas: Tally;
  /**
   * Set when the round changes a ballot a moderator rejected (ballot types): the new ballot counts whole,
   * as a new like counts, so the votes it keeps lose the rejection too (never a ballot counted in part).
   * `recounted`: the kept votes the rejection had left uncounted, which count again like added ones.
   */
  clearsRejection?: { recounted: CastVote[] };
}

export interface RoundInput {
  config: VotesConfig;
  existing: readonly BallotVote[];
  round: readonly CastVote[];
  /** Every idea of the round and, for limits under `merge`, of the held votes. */
  ideas: ReadonlyMap<number, IdeaForVote>;
}

export type Availability = { open: true } | { open: false; reason: string };
