/**
 * The README's benchmark table, every figure computed from bench/results.json (docs
 * figures are generated, never typed). `npx tsx scripts/bench/markdown.ts --update-docs` writes it
 * between the README's bench-summary markers; tests/unit/bench/readme-summary.test.ts fails when the
 * README and bench/results.json disagree.
 */
import type { BundleResults } from './bundles.ts';
import type { LatencyResults } from './latency.ts';
import type { LocalResults } from './local.ts';
import { localReadmeRow } from './local-table.ts';
import type { RequestResults } from './requests.ts';
import type { ScaleResults } from './scale.ts';
import { runCell, type WithRun } from './section-run.ts';

export interface SummaryInput {
  targets: { bundleRatio: number; latencyRatio: number };
  bundles?: WithRun<BundleResults>;
  requests?: WithRun<RequestResults>;
  latency?: WithRun<LatencyResults>;
  scale?: WithRun<ScaleResults>;
  local?: LocalResults;
}

const x = (n: number) => `${n.toFixed(2)}×`;
const range = (values: number[]) => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? x(lo) : `${lo.toFixed(2)}-${x(hi)}`;
};

function requestCounts(requests: RequestResults | undefined, endpoint: string, scenario: RegExp): string {
  const row = requests?.rows.find((r) => r.endpoint === endpoint && scenario.test(r.scenario));
  if (!row) return 'not measured';
  return row.measured.map((m) => `${m.requests} (${m.size})`).join(', ');
}

function growth(scale: ScaleResults | undefined, call: RegExp): string {
  const row = scale?.rows.find((r) => call.test(r.call));
  return row ? x(row.growth) : 'not measured';
}

function readmeSummaryRows(r: SummaryInput): string[][] {
  const rows: string[][] = [];
  if (r.requests) {
    rows.push(
      ['DynamoDB requests: idea list page with every flag', 'constant', requestCounts(r.requests, 'ideaList', /^every include flag, createdate_desc/), runCell(r.requests.run, 'requests')],
      ['DynamoDB requests: vote round', 'constant', requestCounts(r.requests, 'voteCast', /^new round/), runCell(r.requests.run, 'requests')],
    );
  }
  const calls = r.latency?.calls ?? [];
  if (calls.length > 0) {
    const worst = calls.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    rows.push([
      'latency vs the bare DynamoDB requests of the same call (in process)',
      `≤ ${r.targets.latencyRatio}×`,
      `${range(calls.map((c) => c.ratio))} over ${calls.length} calls (highest: ${worst.name})`,
      runCell(r.latency!.run, 'latency'),
    ]);
  }
  const functions = r.bundles?.functions ?? [];
  if (functions.length > 0) {
    const over = functions.filter((f) => f.sizeRatio > r.targets.bundleRatio).length;
    rows.push([
      'bundle size vs a handler that only loads the DynamoDB client and the secret store reader',
      `≤ ${r.targets.bundleRatio}×`,
      `${range(functions.map((f) => f.sizeRatio))} over ${functions.length} functions${over ? ` (${over} over)` : ''}`,
      runCell(r.bundles!.run, 'bundles'),
    ]);
  }
  if (r.scale) {
    rows.push([
      `${r.scale.smallIdeas} → ${r.scale.largeIdeas} ideas: list by date / by votes / vote round`,
      'flat',
      [/createdate_desc/, /votes_desc/, /^vote round/].map((c) => growth(r.scale, c)).join(' / '),
      runCell(r.scale.run, 'scale'),
    ]);
  }
  if (r.local) rows.push(localReadmeRow(r.local));
  return rows;
}

export function readmeSummary(r: SummaryInput): string {
  const rows = readmeSummaryRows(r).map((cells) => `| ${cells.join(' | ')} |`);
  return ['| measure | target | latest | measured (date, load average at start) |', '|---|---|---|---|', ...rows].join('\n');
}
