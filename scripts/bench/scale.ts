/**
 * How list and vote latency change from a site of 100 ideas to one of 10,000 (target: flat). Both
 * sites have the same shape (world.ts: 2 arguments per idea, up to 100 authors, 5 voters of 100
 * ideas each); the large one is seeded in bulk (seed.ts).
 */
import { batchGet } from '#lib/store/db/batch';
import { ideaKeys } from '#lib/store/ideas/keys';
import { filteredListCase, listCase, voteRoundCase } from './cases.ts';
import { seedUsers } from './seed.ts';
import { median, ratio, round } from './stats.ts';
import { timeCases, type TimedCase, type TimedResult } from './timing.ts';
import { ideaSite, type IdeaSite } from './world.ts';

export interface ScaleRow {
  call: string;
  small: TimedResult;
  large: TimedResult;
  /** large / small: median over neighbouring pairs of runs (1.0 = flat); and of the floor medians. */
  growth: number;
  floorGrowth: number;
}

export interface ScaleResults {
  smallIdeas: number;
  largeIdeas: number;
  seedSeconds: number;
  /** Bytes of the largest tally item (one per idea: what a vote round writes per idea it changes). */
  tallyBytes: { small: number; large: number };
  rows: ScaleRow[];
  violations: string[];
}

/** Approximate stored size of the largest tally item among the first 100 ideas (attribute names + values). */
async function tallyBytes(site: IdeaSite): Promise<number> {
  const items = await batchGet<Record<string, unknown>>(site.ideaIds.slice(0, 100).map((id) => ideaKeys.ideaTally(site.siteId, id)));
  const sizeOf = (item: Record<string, unknown>) => Object.entries(item).reduce((bytes, [name, value]) => bytes + name.length + String(value).length, 0);
  return Math.max(0, ...items.map(sizeOf));
}

/** Growth above this counts as "not flat". */
const FLAT = 1.25;

export async function measureScale(small: IdeaSite, largeIdeas: number, runs: number, warmup: number, log: (line: string) => void): Promise<ScaleResults> {
  log(`  seeding a site of ${largeIdeas} ideas (${largeIdeas * small.argumentsPerIdea} arguments)…`);
  const started = performance.now();
  const large = await ideaSite(largeIdeas, small.argumentsPerIdea);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
  log(`  seeded in ${seedSeconds} s`);

  const [smallVoter] = await seedUsers(small.siteId, 1, 'member');
  const [largeVoter] = await seedUsers(large.siteId, 1, 'member');
  const pairs: Array<[string, (s: IdeaSite, voter: NonNullable<typeof smallVoter>) => TimedCase<unknown>]> = [
    ['idea list, page of 100, every flag, createdate_desc', (s) => listCase(s, 'createdate_desc')],
    ['idea list, page of 100, every flag, votes_desc', (s) => listCase(s, 'votes_desc')],
    ['vote round of 20 (replaces 20)', (s, v) => voteRoundCase(s, v)],
    // Discovery: filtered pages, served by the index items.
    ...(['tag', 'search', 'near', 'nearest'] as const).map((filter): (typeof pairs)[number] => [`idea list, ${filter} filter`, (s) => filteredListCase(s, filter)]),
  ];
  const rows: ScaleRow[] = [];
  for (const [call, build] of pairs) {
    // Small and large in turn, run by run, and the growth taken per pair of neighbouring runs.
    const { results, handlerMs } = await timeCases([build(small, smallVoter!), build(large, largeVoter!)], runs, warmup);
    const [s, l] = results as [TimedResult, TimedResult];
    const [sm, lm] = handlerMs as [number[], number[]];
    const growth = round(median(lm.map((ms, i) => ms / sm[i]!)));
    const row = { call, small: s, large: l, growth, floorGrowth: ratio(l.floor.median, s.floor.median) };
    log(`  ${call}: ${s.handler.median} ms -> ${l.handler.median} ms (${row.growth}x; requests ${s.requests.max} -> ${l.requests.max})`);
    rows.push(row);
  }
  const violations = rows.flatMap((r) => {
    const out: string[] = [];
    if (r.growth > FLAT) out.push(`${r.call}: ${r.growth}x slower on ${largeIdeas} ideas than on ${small.ideaIds.length}`);
    if (r.large.requests.max !== r.small.requests.max) out.push(`${r.call}: ${r.small.requests.max} requests on ${small.ideaIds.length} ideas, ${r.large.requests.max} on ${largeIdeas}`);
    return out;
  });
  return {
    smallIdeas: small.ideaIds.length,
    largeIdeas,
    seedSeconds,
    tallyBytes: { small: await tallyBytes(small), large: await tallyBytes(large) },
    rows,
    violations,
  };
}
