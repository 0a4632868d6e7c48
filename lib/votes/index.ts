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
export { parseIsoInstant } from '#lib/votes/iso-date';
export { validateVoteRoundBody, castVoteSchema, voteRoundSchema, MAX_ROUND_ENTRIES, MAX_OPINION_LENGTH } from '#lib/votes/body';
export type { CastVoteBody } from '#lib/votes/body';
export { planRound } from '#lib/votes/round';
export { allowedOpinions } from '#lib/votes/entries';
export { countVotes, tallyDifference, addTally } from '#lib/votes/tally';
