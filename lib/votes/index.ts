/** The pure voting rules: availability, body shape, planning a round, tallies. */
export type {
  CastVote,
  IdeaForVote,
  RoundPlan,
  VotesConfig,
} from '#lib/votes/types';
export { assertVotingOpen } from '#lib/votes/availability';
export { planRound } from '#lib/votes/round';
export { countVotes } from '#lib/votes/tally';
