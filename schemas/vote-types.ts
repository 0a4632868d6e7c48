/**
 * The vote types (spec: `votes.voteType`), declared once. Everything that differs between types is a
 * column of this table, and the rules read the column, never a type's name: a new type is a row here
 * (and its words in the docs), and the config schema's enum, the rules, the results and the exports
 * take it as they find it (tests/unit/votes/vote-types-as-data.test.ts adds a type to prove it).
 */
export interface VoteTypeRules {
  /**
   * How a round changes what the user holds. `toggle`: each entry is about its own idea (a like given
   * again is taken back); `withExisting` and min/maxIdeas do not apply (lib/votes/likes.ts). `ballot`:
   * the round makes one vote set, under `withExisting` and the set's limits (lib/votes/ballot.ts).
   */
  round: 'toggle' | 'ballot';
  /** Opinions a round may always use, on top of the site's `voteValues` (the spec fixes yes/no for likes). */
  fixedOpinions: readonly string[];
  /** Each idea's `budget` counts against min/maxBudget. */
  budgeting: boolean;
  /** `votes.themes[]` limits apply per the idea's `extraData.theme`, and results rank per theme. */
  perTheme: boolean;
  /** The budget winners the results compute: none, one site-wide set, or one set per theme. */
  winners: 'none' | 'site' | 'themes';
  /** Whether the votes export as Pabulib approval ballots (else as CSV only). */
  pabulib: boolean;
}

export const VOTE_TYPES = {
  likes: { round: 'toggle', fixedOpinions: ['yes', 'no'], budgeting: false, perTheme: false, winners: 'none', pabulib: false },
  count: { round: 'ballot', fixedOpinions: [], budgeting: false, perTheme: false, winners: 'none', pabulib: true },
  budgeting: { round: 'ballot', fixedOpinions: [], budgeting: true, perTheme: false, winners: 'site', pabulib: true },
  'count-per-theme': { round: 'ballot', fixedOpinions: [], budgeting: false, perTheme: true, winners: 'none', pabulib: true },
  'budgeting-per-theme': { round: 'ballot', fixedOpinions: [], budgeting: true, perTheme: true, winners: 'themes', pabulib: true },
} as const satisfies Record<string, VoteTypeRules>;

export type VoteType = keyof typeof VOTE_TYPES;

export const VOTE_TYPE_NAMES = Object.keys(VOTE_TYPES) as [VoteType, ...VoteType[]];

/** The row of a vote type: what its rounds, limits, results and exports do. */
export const voteTypeRules = (voteType: VoteType): VoteTypeRules => VOTE_TYPES[voteType];

/** Budgeting types: each idea's `budget` counts against min/maxBudget. */
export const isBudgeting = (voteType: VoteType): boolean => voteTypeRules(voteType).budgeting;

/** Per-theme types: `votes.themes[]` limits apply per the idea's `extraData.theme`. */
export const isPerTheme = (voteType: VoteType): boolean => voteTypeRules(voteType).perTheme;

/** Whether the type's limits read the ideas' budgets or themes (a `merge` round then needs the held ideas too). */
export const limitsReadIdeas = (voteType: VoteType): boolean => isBudgeting(voteType) || isPerTheme(voteType);
