/**
 * `GET /api/site/:SITE_ID/results` (CONTRACT "Decided details, results and exports"): access, then the
 * site's ideas and ballots read by paged Queries of their key ranges (lib/store/ballots/site-ranges.ts), then
 * the pure `computeResults`. Requests: ceil(ballot bytes / 1 MB) + ceil(idea bytes / 1 MB), the two in
 * parallel; nothing per ballot or per idea.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import { readSiteBallots, readSiteIdeas, type SiteIdeaItem } from '#lib/store/ballots/site-ranges';
import { computeResults, type Results, type ResultsIdea } from '#lib/results/results';
import { hashedVotes } from '#lib/votes/seal';

export const themeOf = (idea: Pick<SiteIdeaItem, 'extraData'>): string | null =>
  typeof idea.extraData?.theme === 'string' ? idea.extraData.theme : null;

export const budgetOf = (idea: Pick<SiteIdeaItem, 'budget'>): number | null => (typeof idea.budget === 'number' ? idea.budget : null);

export const resultsIdeaOf = (idea: SiteIdeaItem): ResultsIdea => ({ id: idea.id, title: idea.title, budget: budgetOf(idea), theme: themeOf(idea) });

export async function siteResults(site: Site, caller: Caller, clock: () => Date = () => new Date()): Promise<Results> {
  access.results.read(caller, site.config);
  const [ideas, ballots] = await Promise.all([readSiteIdeas(site.id), readSiteBallots(site.id, 'votes')]);
  return computeResults({
    config: site.config.votes,
    ideas: ideas.map(resultsIdeaOf),
    // A ballot emptied by anonymization or idea deletions is no vote: it is not counted.
    ballots: ballots.map((ballot) => ({ votes: hashedVotes(ballot.votes) })).filter((ballot) => ballot.votes.length > 0),
    computedAt: clock().toISOString(),
  });
}
