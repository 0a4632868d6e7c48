/** The pure voting rules: availability, body shape, planning a round, tallies. */
export type {
  Availability,
  BallotVote,
  CastVote,
  IdeaForVote,
  PlannedVote,
  RoundInput,
  RoundPlan,
  Tally,
  ThemeLimits,
  VoteType,
  VotesConfig,
  WithExisting,
} from '#lib/votes/types';
export { votingAvailability, assertVotingOpen } from '#lib/votes/availability';
export { parseIsoInstant } from '#schemas/iso-date';
export { planRound } from '#lib/votes/round';
export { allowedOpinions } from '#lib/votes/entries';
export { countVotes, tallyDifference, addTally } from '#lib/votes/tally';
