/**
 * What idea reads will need by key, planned from the route's validated input so it joins the site and
 * caller in the request's one BatchGet (lib/request/setup.ts): the caller's ballot for
 * `includeUserVote`; for one idea, the idea and its tally too. Each is the `.plan` of the very store
 * read the idea service makes.
 */
import { getShownBallot } from '#lib/store/ballots/ballots';
import { getIdea } from '#lib/store/ideas/ideas';
import { joinPlans, type ReadPlan } from '#lib/store/db/prefetch';
import { readTallies } from '#lib/store/ideas/tallies';
import type { IdeaIncludes, IdeaParams } from '#schemas/idea';

interface IdeaReadInput {
  siteId: number;
  userId: number | undefined;
  query: Pick<IdeaIncludes, 'includeUserVote'> | undefined;
}

/** The caller's ballot, when the answer shows their votes. */
const userVotePlan = ({ siteId, userId, query }: IdeaReadInput): ReadPlan | undefined =>
  userId !== undefined && query?.includeUserVote === true ? getShownBallot.plan(siteId, userId) : undefined;

/** An idea list page: the caller's ballot when the page shows their votes. */
export const ideaListReads = (input: IdeaReadInput): ReadPlan | undefined => userVotePlan(input);

/** One idea: the idea, its tally, and the caller's ballot when asked for. */
export const ideaReads = (input: IdeaReadInput & { params: IdeaParams }): ReadPlan | undefined =>
  joinPlans(getIdea.plan(input.siteId, input.params.ideaId), readTallies.plan(input.siteId, [input.params.ideaId]), userVotePlan(input));
