/**
 * The vote types (spec: `votes.voteType`), declared once: the config schema's enum, the rules' type and
 * every "is this a budget / per-theme type?" question read this table.
 */
export const VOTE_TYPES = {
  likes: { budgeting: false, perTheme: false },
  count: { budgeting: false, perTheme: false },
  budgeting: { budgeting: true, perTheme: false },
  'count-per-theme': { budgeting: false, perTheme: true },
  'budgeting-per-theme': { budgeting: true, perTheme: true },
} as const satisfies Record<string, { budgeting: boolean; perTheme: boolean }>;

export type VoteType = keyof typeof VOTE_TYPES;

export const VOTE_TYPE_NAMES = Object.keys(VOTE_TYPES) as [VoteType, ...VoteType[]];

/** Budgeting types: each idea's `budget` counts against min/maxBudget. */
export const isBudgeting = (voteType: VoteType): boolean => VOTE_TYPES[voteType].budgeting;

/** Per-theme types: `votes.themes[]` limits apply per the idea's `extraData.theme`. */
export const isPerTheme = (voteType: VoteType): boolean => VOTE_TYPES[voteType].perTheme;
