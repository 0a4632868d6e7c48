/**
 * The data both sides hold, in the same shape: a site of 100 ideas (two arguments each, fifty on one
 * of them, six ballots of 100 votes: a moderator's (an admin's on OpenStad, see `lister`), four voters'
 * and the lister's) and one of `largeIdeas` ideas
 * seeded alike, for the growth cases. Each side's seeder returns ids and `X-Authorization` values.
 */
export const SMALL_IDEAS = 100;
export const ARGUMENTS_PER_IDEA = 2;
export const DETAIL_ARGUMENTS = 50;
/** The voters of the seed (the moderator and four more) each vote for this many ideas, spread over the site. */
export const SEED_ROUND = 100;

export interface SiteWorld {
  siteId: number;
  /** In creation order. */
  ideaIds: number[];
  /**
   * `X-Authorization` of the member the lists and the idea are read as: a ballot of SEED_ROUND votes
   * (includeUserVote has something to show). A member, because OpenStad v1 lets only members and
   * admins vote (its vote route's `userhasModeratorRights` is admin only).
   */
  lister: string;
}

export interface SmallWorld extends SiteWorld {
  /** The idea with DETAIL_ARGUMENTS arguments. */
  detailIdeaId: number;
  /** Members of their own, one per writing case, so the cases do not change each other's state. */
  roundVoter: string;
  singleVoter: string;
  arguer: string;
}

export interface World {
  small: SmallWorld;
  large: SiteWorld;
}

/** The offsets of the four seed voters' rounds after the moderator's (offset 0), as ideaSite casts them. */
export const VOTER_OFFSETS = [3, 10, 17, 24];
/** The offset of the lister's round. */
export const LISTER_OFFSET = 5;
