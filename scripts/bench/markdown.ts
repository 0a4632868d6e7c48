/**
 * Prints the figures of a bench/results.json as Markdown tables, for docs/benchmarks.md:
 * `npx tsx scripts/bench/markdown.ts [bench/results.json]`. With `--update-docs`, writes the local-start
 * table into docs/benchmarks.md (between its bench-local markers), the README row, the anonymize figures
 * of docs/lifecycle.md and the results figures of docs/results.md instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { anonymizeMarkdown, type AnonymizeResults } from './anonymize-markdown.ts';
import { resultsMarkdown, type ResultsBench } from './results-markdown.ts';
import type { BundleResults } from './bundles.ts';
import type { RequestResults } from './requests.ts';
import type { LatencyResults } from './latency.ts';
import type { ScaleResults } from './scale.ts';
import type { LocalResults } from './local.ts';
import { localReadmeRow, localTable } from './local-table.ts';
import { readmeSummary } from './readme-summary.ts';
import { md } from './md-table.ts';
import { runCaption, type WithRun } from './section-run.ts';

/**
 * bench/results.json. The top-level `generatedAt`, `machine`, `config`, `sectionSeconds` and
 * `durationSeconds` describe the last invocation of `npm run bench` (which may have rerun one section
 * only); each section's own `run` says when and under what load its figures were measured.
 */
export interface Results {
  generatedAt: string;
  targets: { bundleRatio: number; latencyRatio: number };
  machine: { cpus: number; cpu: string; memoryGiB: number; node: string; loadAverageAtStart: number[]; loadAverageAtEnd?: number[] };
  config: { runs: number; warmup: number; loadRuns: number; scaleIdeas: number; sections: string[] };
  durationSeconds: number;
  bundles?: WithRun<BundleResults>;
  requests?: WithRun<RequestResults>;
  latency?: WithRun<LatencyResults>;
  scale?: WithRun<ScaleResults>;
  anonymize?: WithRun<AnonymizeResults>;
  results?: ResultsBench;
  local?: LocalResults;
}

/** The local-start table of docs/benchmarks.md and the README row (tests/unit/bench/local-docs.test.ts). */
export function localMarkdown(local: LocalResults): { docs: string; readmeRow: string } {
  const t = localTable(local);
  return { docs: `${t.caption}\n\n${md(t.headers, t.rows)}`, readmeRow: `| ${localReadmeRow(local).join(' | ')} |` };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (n: number) => n.toFixed(1);

const README_SUMMARY = /(<!-- bench-summary:start -->\n)[\s\S]*?(\n<!-- bench-summary:end -->)/;

function updateDocs(results: Results, local: LocalResults) {
  const { docs } = localMarkdown(local);
  const bench = readFileSync('docs/benchmarks.md', 'utf8');
  const block = /(<!-- bench-local:start -->\n)[\s\S]*?(<!-- bench-local:end -->)/;
  if (!block.test(bench)) throw new Error('docs/benchmarks.md has no bench-local markers');
  const latest = /(<!-- bench-latest:start -->\n)[\s\S]*?(\n<!-- bench-latest:end -->)/;
  if (!latest.test(bench)) throw new Error('docs/benchmarks.md has no bench-latest markers');
  writeFileSync(
    'docs/benchmarks.md',
    bench
      .replace(block, (_m, open: string, close: string) => `${open}${docs}\n${close}`)
      .replace(latest, (_m, open: string, close: string) => `${open}${latestMarkdown(results)}${close}`),
  );
  const readme = readFileSync('README.md', 'utf8');
  if (!README_SUMMARY.test(readme)) throw new Error('README.md has no bench-summary markers');
  writeFileSync('README.md', readme.replace(README_SUMMARY, (_m, open: string, close: string) => `${open}${readmeSummary(results)}${close}`));
  const anonymize = results.anonymize;
  if (anonymize) {
    const lifecycle = readFileSync('docs/lifecycle.md', 'utf8');
    const marked = /(<!-- bench-anonymize:start -->\n)[\s\S]*?(\n<!-- bench-anonymize:end -->)/;
    if (!marked.test(lifecycle)) throw new Error('docs/lifecycle.md has no bench-anonymize markers');
    writeFileSync('docs/lifecycle.md', lifecycle.replace(marked, (_m, open: string, close: string) => `${open}${anonymizeMarkdown(anonymize, anonymize.run)}${close}`));
  }
  const computed = results.results;
  if (computed) {
    const page = readFileSync('docs/results.md', 'utf8');
    const marked = /(<!-- bench-results:start -->\n)[\s\S]*?(\n<!-- bench-results:end -->)/;
    if (!marked.test(page)) throw new Error('docs/results.md has no bench-results markers');
    writeFileSync('docs/results.md', page.replace(marked, (_m, open: string, close: string) => `${open}${resultsMarkdown(computed)}${close}`));
  }
  console.log('Updated docs/benchmarks.md, docs/lifecycle.md, docs/results.md and README.md from bench/results.json.');
}

// Run as a script (not when a test imports localMarkdown).
if (process.argv[1] && /markdown\.ts$/.test(process.argv[1])) main();

function main() {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'bench/results.json';
  const r = JSON.parse(readFileSync(file, 'utf8')) as Results;
  if (process.argv.includes('--update-docs')) {
    if (!r.local) throw new Error(`${file} has no local key`);
    return updateDocs(r, r.local);
  }
  const out = [latestMarkdown(r)];
  if (r.local) {
    const local = localMarkdown(r.local);
    out.push('\n#### Local start\n', local.docs, '\nREADME row:\n', local.readmeRow);
  }
  console.log(out.join('\n'));
}

/**
 * docs/benchmarks.md "Latest figures": every section but the local start (which has its own block) and
 * results / anonymize (in docs/results.md and docs/lifecycle.md), each table under the caption of the
 * run that produced it.
 */
export function latestMarkdown(r: Results): string {
  const out: string[] = [];
  out.push(
    `Machine: ${r.machine.cpus} × ${r.machine.cpu}, ${r.machine.memoryGiB} GiB. The sections were measured at different times (\`BENCH_ONLY\` reruns some ` +
      `and keeps the others' figures), so each table says the run it comes from. The last \`npm run bench\` ran ${r.config.sections.map((s) => `\`${s}\``).join(', ')} ` +
      `on ${r.generatedAt.slice(0, 10)} in ${r.durationSeconds} s.`,
  );

  if (r.bundles) {
    const b = r.bundles;
    out.push(
      `\n#### Bundles\n\n${runCaption(b.run, 'bundles')}\n\nFloor (DynamoDB client and secret store reader): ${kib(b.floor.bytes)} KiB, cold import ${ms(b.floor.load.median)} ms (median; ${ms(b.floor.loadCpu.median)} ms of CPU).\n`,
      md(
        ['function', 'KiB', '× floor', 'import ms', '× floor', 'import CPU ms', '× floor', ''],
        b.functions.map((f) => [f.name, kib(f.bytes), f.sizeRatio, ms(f.load.median), f.loadRatio, ms(f.loadCpu.median), f.loadCpuRatio, f.violations.length ? `**over** (${f.violations.join(', ')})` : 'ok']),
      ),
    );
  }
  if (r.requests) {
    out.push(
      `\n#### DynamoDB requests per call\n\n${runCaption(r.requests.run, 'requests')}\n`,
      md(
        ['endpoint', 'scenario', 'requests', 'read / write units', ''],
        r.requests.rows.map((row) => [
          row.endpoint,
          row.scenario,
          row.measured.map((m) => (m.size === '-' ? String(m.requests) : `${m.requests} (${m.size})`)).join(' vs '),
          row.measured.map((m) => (m.readUnits === undefined ? '-' : `${m.readUnits} / ${m.writeUnits}`)).join(' vs '),
          row.expect === 'grows' ? 'grows by design' : row.constant === null ? '' : row.constant ? 'constant' : '**not constant**',
        ]),
        5,
      ),
    );
  }
  if (r.latency) {
    out.push(
      `\n#### Latency vs the bare DynamoDB requests (ms)\n\n${runCaption(r.latency.run, 'latency')}\n`,
      md(
        ['call', 'requests', 'median', 'p95', 'floor median', 'floor p95', '× floor'],
        r.latency.calls.map((c) => [c.name, c.requests.max, ms(c.handler.median), ms(c.handler.p95), ms(c.floor.median), ms(c.floor.p95), c.ratio]),
      ),
    );
  }
  if (r.scale) {
    const s = r.scale;
    out.push(
      `\n#### ${s.smallIdeas} vs ${s.largeIdeas} ideas (ms, median)\n\n${runCaption(s.run, 'scale')}\n\nLargest tally item (one per idea): ${s.tallyBytes.small} B vs ${s.tallyBytes.large} B (attribute names + values).\n`,
      md(
        ['call', `${s.smallIdeas} ideas`, `${s.largeIdeas} ideas`, 'growth', 'floor', 'requests', 'items read', 'KiB read'],
        s.rows.map((row) => [
          row.call,
          ms(row.small.handler.median),
          ms(row.large.handler.median),
          `${row.growth}×`,
          `${ms(row.small.floor.median)} → ${ms(row.large.floor.median)}`,
          `${row.small.requests.max} → ${row.large.requests.max}`,
          `${row.small.itemsRead} → ${row.large.itemsRead}`,
          `${kib(row.small.bytesRead)} → ${kib(row.large.bytesRead)}`,
        ]),
      ),
    );
  }
  return out.join('\n');
}
