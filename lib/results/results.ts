/**
 * The body of `GET /api/site/:SITE_ID/results` (CONTRACT "Decided details, results and exports") from
 * plain data: the site's vote config, its ideas and its ballots as a paged Query of whatever ballot
 * storage returns them. No storage, no clock (the caller passes `computedAt`).
 *
 * Decisions the CONTRACT leaves open, kept here in one place:
 * - `yes` and `no` count the votes with opinion `yes` and `no`; for the ballot types an approval is a
 *   vote with opinion `yes` (the default and only sensible value for count and budgeting).
 * - `ideas` lists every idea given, ranked over the whole site, for every vote type.
 * - `budgeting`: `winners` over all ideas with a budget, within `votes.maxBudget`. `budgeting-per-theme`:
 *   per theme of `votes.themes` (in config order), the ideas whose theme is that value, and winners within
 *   the theme's `maxBudget`, or `votes.maxBudget` when the theme has none. Without any budget there are
 *   no `winners` (nothing to fill). An idea without a budget is ranked but never funded.
 * - The voters among whom Equal Shares divides a budget are the ballots that approve at least one idea it
 *   can fund (a theme's ideas, per theme): a ballot with nothing there would get a share that cannot be
 *   spent.
 */
import { equalShares } from '#lib/results/equal-shares';
import { greedyWinners, type Winners } from '#lib/results/greedy';
import { type RankedIdea, rankIdeas } from '#lib/results/rank';
import { countVotes } from '#lib/votes/tally';
import type { VotesConfig, VoteType } from '#lib/votes/types';
import { isBudgeting, isPerTheme } from '#schemas/vote-types';

export interface ResultsIdea {
  id: number;
  title: string;
  budget: number | null;
  theme: string | null;
}

export interface ResultsBallot {
  votes: readonly { ideaId: number; opinion: string }[];
}

export interface ResultsInput {
  config: Pick<VotesConfig, 'voteType' | 'maxBudget' | 'themes'>;
  ideas: readonly ResultsIdea[];
  ballots: readonly ResultsBallot[];
  computedAt: string;
}

export interface BudgetWinners {
  greedy: Winners;
  equalShares: Winners;
}

export interface ThemeResults {
  value: string;
  ideas: RankedIdea[];
  winners?: BudgetWinners;
}

export interface Results {
  voteType: VoteType;
  computedAt: string;
  ballots: number;
  ideas: RankedIdea[];
  winners?: BudgetWinners;
  themes?: ThemeResults[];
}

const APPROVAL = 'yes';

/** Greedy and Equal Shares over `ideas` (those with a budget) within `budget`. */
function winnersOf(ideas: readonly ResultsIdea[], approvals: readonly number[][], budget: number | null | undefined): BudgetWinners | undefined {
  if (budget === null || budget === undefined) return undefined;
  const funded = ideas.filter((idea): idea is ResultsIdea & { budget: number } => idea.budget !== null);
  const ids = new Set(funded.map((idea) => idea.id));
  const input = {
    ideas: funded.map((idea) => ({ id: idea.id, cost: idea.budget })),
    ballots: approvals.map((ballot) => ballot.filter((id) => ids.has(id))).filter((ballot) => ballot.length > 0),
    budget,
  };
  const mes = equalShares(input);
  return { greedy: greedyWinners(input), equalShares: { ideaIds: mes.ideaIds, spent: mes.spent } };
}

export function computeResults({ config, ideas, ballots, computedAt }: ResultsInput): Results {
  const tally = countVotes(ballots.flatMap((ballot) => ballot.votes));
  const results: Results = { voteType: config.voteType, computedAt, ballots: ballots.length, ideas: rankIdeas(ideas, tally) };
  const approvals = ballots.map((ballot) => ballot.votes.filter((vote) => vote.opinion === APPROVAL).map((vote) => vote.ideaId));

  if (config.voteType === 'budgeting') results.winners = winnersOf(ideas, approvals, config.maxBudget);
  if (isPerTheme(config.voteType)) {
    results.themes = (config.themes ?? []).map((theme) => {
      const own = ideas.filter((idea) => idea.theme === theme.value);
      const entry: ThemeResults = { value: theme.value, ideas: rankIdeas(own, tally) };
      if (isBudgeting(config.voteType)) {
        const winners = winnersOf(own, approvals, theme.maxBudget ?? config.maxBudget);
        if (winners) entry.winners = winners;
      }
      return entry;
    });
  }
  if (results.winners === undefined) delete results.winners;
  return results;
}
