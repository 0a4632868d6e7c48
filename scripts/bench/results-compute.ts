/**
 * Section `results` of `npm run bench`, the computation: Equal Shares with the add-one completion (and
 * greedy) on made-up city votes (results-instance.ts) of 200 ideas × 5,000 ballots and 500 × 100,000,
 * timed in CPU milliseconds of this process (a Lambda function of 1,769 MB has one vCPU: its CPU time is
 * its wall time), split into building the profile (grouping ballots), the completion search and the
 * greedy rule. The runs are what the completion needs; the time per run is what a deadline divides.
 */
import { continueEqualShares, startEqualShares } from '#lib/results/equal-shares';
import { greedyWinners } from '#lib/results/greedy';
import { buildProfile } from '#lib/results/profile';
import { cityVote } from './results-instance.ts';

interface ComputeCase {
  ideas: number;
  ballots: number;
  budgetShare: number;
}

export interface ComputeRow extends ComputeCase {
  approvals: number;
  /** Distinct ballots (groups of identical approval sets). */
  groups: number;
  runs: number;
  funded: number;
  profileMs: number;
  searchMs: number;
  msPerRun: number;
  greedyMs: number;
  /** CPU of the whole computation. */
  totalMs: number;
  wallMs: number;
}

export const COMPUTE_CASES: ComputeCase[] = [
  { ideas: 200, ballots: 5_000, budgetShare: 0.15 },
  { ideas: 500, ballots: 100_000, budgetShare: 0.15 },
  // A larger budget per voter: more completion runs.
  { ideas: 500, ballots: 100_000, budgetShare: 0.4 },
];

const cpuMs = () => process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function measureCompute(cases: readonly ComputeCase[] = COMPUTE_CASES, log: (line: string) => void = () => {}): ComputeRow[] {
  return cases.map((c) => {
    const input = cityVote(c.ideas, c.ballots, { budgetShare: c.budgetShare });
    const wall = performance.now();
    let at = cpuMs();
    const profile = buildProfile(input);
    const profileMs = cpuMs() - at;
    at = cpuMs();
    const search = continueEqualShares(profile, startEqualShares(profile));
    const searchMs = cpuMs() - at;
    at = cpuMs();
    greedyWinners(input);
    const greedyMs = cpuMs() - at;
    const row: ComputeRow = {
      ...c,
      approvals: input.ballots.reduce((sum, b) => sum + b.length, 0),
      groups: profile.groupWeight.length,
      runs: search.runs,
      funded: search.kept.ideaIds.length,
      profileMs: round(profileMs),
      searchMs: round(searchMs),
      msPerRun: round(searchMs / search.runs, 2),
      greedyMs: round(greedyMs),
      totalMs: round(profileMs + searchMs + greedyMs),
      wallMs: round(performance.now() - wall),
    };
    log(`  ${c.ideas} ideas × ${c.ballots} ballots (budget ${c.budgetShare * 100}%): ${row.runs} runs, ${row.totalMs} ms CPU (${row.msPerRun} ms/run)`);
    return row;
  });
}
