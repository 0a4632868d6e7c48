/**
 * Our API and OpenStad v1 side by side over HTTP, on the same machine, the same data
 * and interleaved calls. Writes bench/openstad.json; `npx tsx scripts/bench/openstad/markdown.ts` puts
 * its table into docs/benchmarks.md.
 *
 * Needs both running: ours with `npm start -- --in-memory` (given JWT_SECRET), OpenStad v1 (Express +
 * MariaDB, from its own repository, outside this one) with a fixed admin token and a stand-in for its
 * auth server's `/api/userinfo`. How it was set up here: docs/benchmarks.md, "Side by side with OpenStad".
 * Env: OURS_URL, OURS_DYNAMODB_ENDPOINT, OURS_JWT_SECRET, OPENSTAD_URL, OPENSTAD_TOKEN,
 * OPENSTAD_JWT_SECRET, OPENSTAD_AUTH_URL, OPENSTAD_MYSQL, OPENSTAD_CMS_URL, OPENSTAD_COMMIT, BENCH_HOW,
 * and the knobs BENCH_RUNS (60), BENCH_WARMUP (300), BENCH_SCALE_IDEAS (10000), BENCH_LOAD_REQUESTS (600),
 * BENCH_IN_FLIGHT (10), BENCH_OUT, BENCH_WORLDS (scripts/bench/openstad/settings.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { readSettings } from './settings.ts';
import { useOurStack } from './stack-env.ts';
import type { CaseResult, GrowthResult, OpenstadResults, ThroughputResult } from './results.ts';
import type { World } from './world.ts';

const settings = readSettings();
useOurStack(settings.ours);
// lib/ (through the seeders and the shared world) only now, with the environment set.
const { seedOurs } = await import('./ours-seed.ts');
const { seedTheirs } = await import('./theirs-seed.ts');
const { latencyCases, loadCases, BY_DATE_SMALL, BY_VOTES_SMALL, byVotesLarge, byDateLarge } = await import('./cases.ts');
const { timeInterleaved, throughput } = await import('./measure.ts');
const { summarize, round } = await import('../stats.ts');

const log = (line: string) => console.log(line);
const load = () => loadavg().map((l) => round(l, 2));
const loadAverageAtStart = load();

type Worlds = Record<'ours' | 'theirs', World>;
async function seedBoth(): Promise<Worlds> {
  log(`Seeding both sides (100 ideas and ${settings.largeIdeas.toLocaleString('en-US')} ideas)…`);
  const t0 = performance.now();
  const seeded = { ours: await seedOurs(settings.largeIdeas), theirs: await seedTheirs(settings.theirs, settings.largeIdeas) };
  log(`  seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (settings.worlds) writeFileSync(settings.worlds, `${JSON.stringify(seeded, null, 2)}\n`);
  return seeded;
}
// BENCH_WORLDS: a second run on the same running servers skips the seeding (the vote rounds go on
// from where the last run left the ballots, which every round replaces anyway).
const worlds: Worlds = settings.worlds && existsSync(settings.worlds) ? (JSON.parse(readFileSync(settings.worlds, 'utf8')) as Worlds) : await seedBoth();
log(`Ours: sites ${worlds.ours.small.siteId} / ${worlds.ours.large.siteId}; OpenStad: sites ${worlds.theirs.small.siteId} / ${worlds.theirs.large.siteId}`);

const bases = { ours: settings.ours.url, theirs: settings.theirs.url };
const cases: CaseResult[] = [];
for (const c of latencyCases(worlds, settings.largeIdeas)) {
  const { samples, bytes } = await timeInterleaved(c, bases, settings.runs, settings.warmup);
  const ours = summarize(samples.ours);
  const theirs = summarize(samples.theirs);
  const result: CaseResult = {
    name: c.name,
    ours: { median: ours.median, p95: ours.p95, n: ours.n, bytes: bytes.ours },
    theirs: { median: theirs.median, p95: theirs.p95, n: theirs.n, bytes: bytes.theirs },
    ratio: round(ours.median / theirs.median, 2),
  };
  cases.push(result);
  log(`  ${c.name}: ours ${ours.median} ms, OpenStad ${theirs.median} ms (${result.ratio}x)`);
}

const median = (name: string) => cases.find((c) => c.name === name)!;
const growthOf = (name: string, large: string, small: string): GrowthResult => ({
  name,
  ours: round(median(large).ours.median / median(small).ours.median, 2),
  theirs: round(median(large).theirs.median / median(small).theirs.median, 2),
});
const growth = [
  growthOf('page of 100 by votes, 100 → large site', byVotesLarge(settings.largeIdeas), BY_VOTES_SMALL),
  growthOf('page of 100 by date, 100 → large site', byDateLarge(settings.largeIdeas), BY_DATE_SMALL),
];

const loads: ThroughputResult[] = [];
for (const c of loadCases(worlds)) {
  const rps = await throughput(c, bases, settings.loadRequests, settings.inFlight);
  const figure = (v: number | string) => (typeof v === 'number' ? round(v, 1) : v);
  const ratio = typeof rps.ours === 'number' && typeof rps.theirs === 'number' ? round(rps.ours / rps.theirs, 2) : null;
  loads.push({ name: c.name, ours: figure(rps.ours), theirs: figure(rps.theirs), ratio });
  log(`  throughput, ${c.name}: ours ${figure(rps.ours)} req/s, OpenStad ${figure(rps.theirs)} req/s`);
}

const mariadb = execFileSync(settings.theirs.mysql[0]!, [...settings.theirs.mysql.slice(1), '-N', '-B', '-e', 'SELECT VERSION()'], { encoding: 'utf8' }).trim();
const results: OpenstadResults = {
  generatedAt: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), platform: process.platform, driverNode: process.version, loadAverageAtStart, loadAverageAtEnd: load() },
  openstad: { repository: 'openstad/openstad-api', commit: settings.theirs.commit, mariadb },
  howRun: settings.howRun,
  config: { runs: settings.runs, warmup: settings.warmup, largeIdeas: settings.largeIdeas, loadRequests: settings.loadRequests, inFlight: settings.inFlight },
  cases,
  growth,
  throughput: loads,
};
mkdirSync(dirname(settings.out), { recursive: true });
writeFileSync(settings.out, `${JSON.stringify(results, null, 2)}\n`);
log(`Wrote ${settings.out}.`);
