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
import { createHash } from 'node:crypto';
import type { BudgetInput } from '#lib/results/approvals';
import { continueEqualShares, type EqualSharesSearch, startEqualShares } from '#lib/results/equal-shares';
import { greedyWinners, type Winners } from '#lib/results/greedy';
import { buildProfile } from '#lib/results/profile';
import { type RankedIdea, rankIdeas } from '#lib/results/rank';
import { countVotes } from '#lib/votes/tally';
import type { VotesConfig, VoteType } from '#lib/votes/types';
import { isPerTheme, voteTypeRules } from '#schemas/vote-types';

export interface ResultsIdea {
  id: number;
  title: string;
  budget: number | null;
  theme: string | null;
}

interface ResultsBallot {
  votes: readonly { ideaId: number; opinion: string }[];
}

interface ResultsInput {
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

/**
 * Where an unfinished computation stands: the Equal Shares search of each budget (the site's, or one
 * per theme), and a fingerprint of the input they belong to, so a later run over changed ballots
 * starts again instead of mixing two inputs. JSON-safe: a background job stores it between runs.
 */
export interface ResultsProgress {
  fingerprint: string;
  searches: Record<string, EqualSharesSearch>;
}

type ResultsStep = { kind: 'done'; results: Results } | { kind: 'progress'; progress: ResultsProgress };

/** One budget to fill: the site's (`site`) or a theme's (`theme:<value>`). */
interface BudgetTask {
  key: string;
  input: BudgetInput;
}

/** Greedy and Equal Shares' input over `ideas` (those with a budget) within `budget`; none without a budget. */
function budgetTask(key: string, ideas: readonly ResultsIdea[], approvals: readonly number[][], budget: number | null | undefined): BudgetTask | undefined {
  if (budget === null || budget === undefined) return undefined;
  const funded = ideas.filter((idea): idea is ResultsIdea & { budget: number } => idea.budget !== null);
  const ids = new Set(funded.map((idea) => idea.id));
  return {
    key,
    input: {
      ideas: funded.map((idea) => ({ id: idea.id, cost: idea.budget })),
      ballots: approvals.map((ballot) => ballot.filter((id) => ids.has(id))).filter((ballot) => ballot.length > 0),
      budget,
    },
  };
}

const themeIdeas = (ideas: readonly ResultsIdea[], value: string) => ideas.filter((idea) => idea.theme === value);

function budgetTasks({ config, ideas, ballots }: ResultsInput): BudgetTask[] {
  const approvals = ballots.map((ballot) => ballot.votes.filter((vote) => vote.opinion === APPROVAL).map((vote) => vote.ideaId));
  const tasks: (BudgetTask | undefined)[] = [];
  const { winners } = voteTypeRules(config.voteType);
  if (winners === 'site') tasks.push(budgetTask('site', ideas, approvals, config.maxBudget));
  if (winners === 'themes') {
    for (const theme of config.themes ?? []) tasks.push(budgetTask(`theme:${theme.value}`, themeIdeas(ideas, theme.value), approvals, theme.maxBudget ?? config.maxBudget));
  }
  return tasks.filter((task): task is BudgetTask => task !== undefined);
}

const fingerprintOf = (tasks: readonly BudgetTask[]): string => createHash('sha256').update(JSON.stringify(tasks)).digest('hex');

function assemble({ config, ideas, ballots, computedAt }: ResultsInput, winners: ReadonlyMap<string, BudgetWinners>): Results {
  const tally = countVotes(ballots.flatMap((ballot) => ballot.votes));
  const results: Results = { voteType: config.voteType, computedAt, ballots: ballots.length, ideas: rankIdeas(ideas, tally) };
  const site = winners.get('site');
  if (site) results.winners = site;
  if (isPerTheme(config.voteType)) {
    results.themes = (config.themes ?? []).map((theme) => {
      const entry: ThemeResults = { value: theme.value, ideas: rankIdeas(themeIdeas(ideas, theme.value), tally) };
      const own = winners.get(`theme:${theme.value}`);
      if (own) entry.winners = own;
      return entry;
    });
  }
  return results;
}

/**
 * Computes the results until done or until `stop()` says so (asked after each Equal Shares run, so each
 * call makes progress), going on from `progress` when it belongs to this very input. Deterministic: stopping and resuming any number
 * of times gives the answer one uninterrupted computation gives.
 */
export function computeResultsWithin(input: ResultsInput, options: { stop?: () => boolean; progress?: ResultsProgress | undefined } = {}): ResultsStep {
  const stop = options.stop ?? (() => false);
  const tasks = budgetTasks(input);
  const fingerprint = fingerprintOf(tasks);
  const resumed = options.progress?.fingerprint === fingerprint ? options.progress.searches : {};
  const searches: Record<string, EqualSharesSearch> = {};
  const winners = new Map<string, BudgetWinners>();
  for (const task of tasks) {
    const saved = resumed[task.key];
    if (saved?.next === null) {
      searches[task.key] = saved;
    } else {
      // Every call moves each unfinished search on by at least one run: progress even past a deadline.
      const profile = buildProfile(task.input);
      searches[task.key] = continueEqualShares(profile, saved ?? startEqualShares(profile), {}, stop);
    }
    const search = searches[task.key]!;
    if (search.next === null) winners.set(task.key, { greedy: greedyWinners(task.input), equalShares: search.kept });
  }
  if (winners.size < tasks.length) return { kind: 'progress', progress: { fingerprint, searches } };
  return { kind: 'done', results: assemble(input, winners) };
}

/** The results in one go (no deadline). */
export function computeResults(input: ResultsInput): Results {
  const step = computeResultsWithin(input);
  if (step.kind !== 'done') throw new Error('unreachable: a computation without a deadline ends');
  return step.results;
}
