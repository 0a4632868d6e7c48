/**
 * `npm run bench`: bundle sizes and load times, DynamoDB requests per call, in-process latency next
 * to its DynamoDB floor, and list / vote latency on a site of 100 vs 10,000 ideas. Prints tables and
 * writes bench/results.json. Starts its own in-memory DynamoDB Local (Java) on a free port. Section
 * `results` computes Equal Shares on city-sized votes (200 ideas × 5,000 ballots, 500 × 100,000) and
 * times the snapshot read. Section `local` times `npm start -- --in-memory` (scripts/bench/local.ts).
 * Every section carries its own run record under `run` (section-run.ts: when, load average at its start
 * and end, its knobs, its seconds); a section `BENCH_ONLY` leaves out keeps its figures and record from
 * the previous file. The top-level header (`generatedAt`, `machine`, `config`, `sectionSeconds`,
 * `durationSeconds`) describes the last invocation only.
 * Knobs (env): BENCH_RUNS, BENCH_WARMUP, BENCH_LOAD_RUNS, BENCH_SCALE_IDEAS, BENCH_LOCAL_RUNS, BENCH_ONLY, BENCH_OUT
 * (scripts/bench/config.ts). How to read the figures: docs/benchmarks.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoLocal, type DynamoLocal } from '../dynamo-local.ts';
import { benchConfig, TARGETS } from './config.ts';
import { measureBundles } from './bundles.ts';
import { readDeployConfig } from './serverless-config.ts';
import { setBenchEnv } from './env.ts';
import { bundleReport, latencyReport, localReport, requestReport, scaleReport } from './report.ts';
import { measureLocal, type LocalResults } from './local.ts';
import { COMPUTE_CASES, measureCompute, type ComputeRow } from './results-compute.ts';
import { resultsMarkdown, type ResultsBench } from './results-markdown.ts';
import { startSection } from './section-run.ts';
import { load } from 'js-yaml';

/** The results job's Lambda timeout, as functions/jobs/functions.yml declares it. */
const resultsJobTimeoutSeconds = () => {
  const jobs = load(readFileSync(resolve(root, 'functions/jobs/functions.yml'), 'utf8')) as { jobResults?: { timeout?: number } };
  const timeout = jobs.jobResults?.timeout;
  if (typeof timeout !== 'number') throw new Error('functions/jobs/functions.yml: jobResults has no timeout');
  return timeout;
};

/** The results job's Lambda memory: its own `memorySize` in functions/jobs/functions.yml, else the provider's in serverless.yml. */
const resultsJobMemoryMB = () => {
  const jobs = load(readFileSync(resolve(root, 'functions/jobs/functions.yml'), 'utf8')) as { jobResults?: { memorySize?: number } };
  const own = jobs.jobResults?.memorySize;
  if (typeof own === 'number') return own;
  const provider = /^provider:[\s\S]*?^ {2}memorySize: (\d+)$/m.exec(readFileSync(resolve(root, 'serverless.yml'), 'utf8'));
  if (!provider) throw new Error('serverless.yml: the provider has no memorySize');
  return Number(provider[1]);
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const log = (line: string) => console.log(line);

async function main() {
  const started = performance.now();
  const { sections } = benchConfig;
  const out = resolve(root, benchConfig.out);
  const previous = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  const previousLocal = previous.local as LocalResults | undefined;

  const results: Record<string, unknown> = {
    generatedAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: process.platform, loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100) },
    config: { runs: benchConfig.runs, warmup: benchConfig.warmup, loadRuns: benchConfig.loadRuns, scaleIdeas: benchConfig.scaleIdeas, sections: [...sections] },
    targets: TARGETS,
  };
  const violations: Record<string, string[]> = {};
  const sectionSeconds: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    sectionSeconds[name] = Math.round((performance.now() - mark) / 100) / 10;
    mark = performance.now();
  };
  const reports: string[] = [];

  // Bundles first, before Java starts competing for the two cores.
  if (sections.has('bundles')) {
    log('Bundles…');
    const section = startSection({ loadRuns: benchConfig.loadRuns });
    const bundles = await measureBundles(root, benchConfig.loadRuns, log);
    results.bundles = { run: section.finish(), ...bundles };
    violations.bundles = bundles.violations;
    reports.push(bundleReport(bundles));
    lap('bundles');
    log(`\n${reports.at(-1)}\n`);
  }

  // CPU only, also before Java starts: Equal Shares at city scale.
  let computeRows: ComputeRow[] | undefined;
  // The results section runs in two phases (CPU now, the DynamoDB reads after the other sections).
  const resultsSection = startSection({ runs: benchConfig.runs, warmup: benchConfig.warmup });
  if (sections.has('results')) {
    log('Results: computing Equal Shares at city scale…');
    computeRows = measureCompute(COMPUTE_CASES, log);
    lap('resultsCompute');
  }
  resultsSection.pause();

  let dynamo: DynamoLocal | undefined;
  try {
    if (sections.has('requests') || sections.has('latency') || sections.has('scale') || sections.has('anonymize') || sections.has('results')) {
      log('Starting DynamoDB Local (in memory)…');
      dynamo = await startDynamoLocal();
      setBenchEnv(dynamo.endpoint);
      // lib reads the environment at first import: only now may it be loaded.
      const { ensureTable } = await import('#lib/store/db/table');
      await ensureTable();
      lap('dynamoLocalStart');
    }

    if (sections.has('requests')) {
      log('Requests per call…');
      const { measureRequests } = await import('./requests.ts');
      const section = startSection({});
      const requests = await measureRequests(readDeployConfig(root).functions.map((f) => f.name), log);
      results.requests = { run: section.finish(), ...requests };
      violations.requests = requests.violations;
      reports.push(requestReport(requests));
      lap('requests');
      log(`\n${reports.at(-1)}\n`);
    }

    if (sections.has('latency') || sections.has('scale')) {
      const { ideaSite } = await import('./world.ts');
      log('Seeding the 100-idea site…');
      const site = await ideaSite(100);
      lap('seed100');
      if (sections.has('latency')) {
        log('Latency…');
        const { measureLatency } = await import('./latency.ts');
        const section = startSection({ runs: benchConfig.runs, warmup: benchConfig.warmup });
        const latency = await measureLatency(site, benchConfig.runs, benchConfig.warmup, log);
        results.latency = { run: section.finish(), ...latency };
        violations.latency = latency.violations;
        reports.push(latencyReport(latency));
        lap('latency');
        log(`\n${reports.at(-1)}\n`);
      }
      if (sections.has('scale')) {
        log('Scale…');
        const { measureScale } = await import('./scale.ts');
        const section = startSection({ runs: benchConfig.runs, warmup: benchConfig.warmup, scaleIdeas: benchConfig.scaleIdeas });
        const scale = await measureScale(site, benchConfig.scaleIdeas, benchConfig.runs, benchConfig.warmup, log);
        results.scale = { run: section.finish(), ...scale };
        violations.scale = scale.violations;
        reports.push(scaleReport(scale));
        lap('scale');
        log(`\n${reports.at(-1)}\n`);
      }
    }
    if (sections.has('anonymize')) {
      log('Anonymization throughput…');
      const { measureAnonymize } = await import('./anonymize.ts');
      const { anonymizeMarkdown } = await import('./anonymize-markdown.ts');
      const section = startSection({ anonymizeUsers: benchConfig.anonymizeUsers, anonymizeSeconds: benchConfig.anonymizeSeconds });
      const anonymize = await measureAnonymize(benchConfig.anonymizeUsers, benchConfig.anonymizeSeconds, log);
      const run = section.finish();
      results.anonymize = { run, ...anonymize };
      violations.anonymize = anonymize.hoursFor100k > 24 ? [`100,000 users take ${anonymize.hoursFor100k} hours (> 24)`] : [];
      reports.push(`Anonymization (one site)\n${anonymizeMarkdown(anonymize, run)}`);
      lap('anonymize');
      log(`\n${reports.at(-1)}\n`);
    }
    if (computeRows) {
      resultsSection.resume();
      log('Results: the snapshot read…');
      const { measureResultsRead } = await import('./results-read.ts');
      const { STOP_BEFORE_DEADLINE_MS } = await import('#lib/jobs/run');
      const read = await measureResultsRead(benchConfig.runs, benchConfig.warmup, log);
      log('Results: the job at city scale (read and memory)…');
      const { measureResultsJob } = await import('./results-job.ts');
      const job = await measureResultsJob(resultsJobMemoryMB(), log);
      const bench: ResultsBench = {
        run: resultsSection.finish(),
        jobWorkSeconds: resultsJobTimeoutSeconds() - STOP_BEFORE_DEADLINE_MS / 1000,
        compute: computeRows,
        read: read.map(({ name, requests, commands, handler, floor, bodyBytes, chunks }) => ({ name, requests, commands, handler, floor, bodyBytes, chunks })),
        job,
      };
      results.results = bench;
      violations.results = read.filter((row) => row.requests.max > 2).map((row) => `${row.name}: ${row.requests.max} requests (> 2)`);
      reports.push(`Results\n${resultsMarkdown(bench)}`);
      lap('resultsRead');
      log(`\n${reports.at(-1)}\n`);
    }
  } finally {
    await dynamo?.stop();
  }

  // Last, once the bench's own DynamoDB Local is gone: it starts the whole local stack itself.
  if (sections.has('local')) {
    log('Local start…');
    const local = await measureLocal(benchConfig.localRuns, log, previousLocal?.before);
    results.local = local;
    violations.local = local.violations;
    reports.push(localReport(local));
    lap('local');
    log(`\n${reports.at(-1)}\n`);
  } else if (previousLocal) {
    results.local = previousLocal;
    violations.local = previousLocal.violations;
  }

  // Sections not run this time keep the figures and the run record of the run that made them (BENCH_ONLY reruns some).
  for (const section of ['bundles', 'requests', 'latency', 'scale', 'anonymize', 'results'] as const) {
    if (!sections.has(section) && previous[section] !== undefined) {
      results[section] = previous[section];
      violations[section] = ((previous.violations as Record<string, string[]> | undefined) ?? {})[section] ?? [];
    }
  }
  results.violations = violations;
  results.sectionSeconds = sectionSeconds;
  results.durationSeconds = Math.round((performance.now() - started) / 1000);
  // Other processes on the machine move every timing; the load average says how much to trust them.
  (results.machine as Record<string, unknown>).loadAverageAtEnd = loadavg().map((l) => Math.round(l * 100) / 100);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);

  log('='.repeat(100));
  log(reports.join('\n\n'));
  const all = Object.entries(violations).flatMap(([section, list]) => list.map((v) => `[${section}] ${v}`));
  log(`\n${all.length === 0 ? 'Every target met.' : `Over target (${all.length}):\n  ${all.join('\n  ')}`}`);
  log(`\nWrote ${benchConfig.out} in ${results.durationSeconds} s (load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} CPUs).`);
}

main().catch((err) => {
  console.error(`\nnpm run bench failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
