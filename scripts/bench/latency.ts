/**
 * In-process latency of the main calls against DynamoDB Local, each next to the time of its bare
 * DynamoDB requests (timing.ts). Target: every call within 1.3x of that floor.
 */
import { createSite } from '#tests/support/fixtures';
import { argumentListCase, createIdeaCase, getIdeaCase, listCase, siteGetCase, voteRoundCase } from './cases.ts';
import { seedUsers } from './seed.ts';
import { timeCase, type TimedCase, type TimedResult } from './timing.ts';
import { BENCH_CONFIG, type IdeaSite } from './world.ts';

export interface LatencyResults {
  runs: number;
  warmup: number;
  calls: TimedResult[];
  violations: string[];
}

export async function measureLatency(site: IdeaSite, runs: number, warmup: number, log: (line: string) => void): Promise<LatencyResults> {
  // Creates go to a site of their own, so the 100-idea site stays as the scale section expects it.
  const { id: createSiteId } = await createSite(BENCH_CONFIG, 'Bench create site');
  const [author] = await seedUsers(createSiteId, 1, 'member');
  const [voter] = await seedUsers(site.siteId, 1, 'member');
  const cases = [
    listCase(site, 'createdate_desc'),
    getIdeaCase(site),
    createIdeaCase(createSiteId, author!),
    voteRoundCase(site, voter!),
    argumentListCase(site),
    siteGetCase(site),
  ];
  const calls: TimedResult[] = [];
  for (const c of cases) {
    const result = await timeCase(c as TimedCase<unknown>, runs, warmup);
    log(`  ${c.name}: median ${result.handler.median} ms, floor ${result.floor.median} ms (${result.ratio}x)`);
    calls.push(result);
  }
  return { runs, warmup, calls, violations: calls.flatMap((c) => (c.violation ? [c.violation] : [])) };
}
