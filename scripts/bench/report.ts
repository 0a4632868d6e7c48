/** Plain-text tables of the bench results for the terminal. */
import type { BundleResults } from './bundles.ts';
import type { RequestResults } from './requests.ts';
import type { LatencyResults } from './latency.ts';
import type { ScaleResults } from './scale.ts';
import { TARGETS } from './config.ts';
import type { LocalResults } from './local.ts';
import { localTable } from './local-table.ts';

function table(headers: string[], rows: Array<Array<string | number>>, alignLeft = 1): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i < alignLeft ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const flag = (bad: boolean) => (bad ? '  <-- over target' : '');

export function bundleReport(r: BundleResults): string {
  const rows = r.functions.map((f) => [
    f.name,
    kb(f.bytes),
    `${f.sizeRatio}x`,
    f.load.median.toFixed(1),
    `${f.loadRatio}x`,
    f.loadCpu.median.toFixed(1),
    `${f.loadCpuRatio}x`,
    f.violations.length ? 'OVER' : 'ok',
  ]);
  return [
    `Bundles (esbuild as serverless.yml custom.esbuild; load = median import() of ${r.loadRuns} fresh \`node ${r.nodeFlags.join(' ')}\`, ${r.nodeVersion})`,
    `floor (DynamoDB client and secret store reader): ${kb(r.floor.bytes)} KiB, load ${r.floor.load.median.toFixed(1)} ms (CPU ${r.floor.loadCpu.median.toFixed(1)} ms); target <= ${TARGETS.bundleRatio}x`,
    table(['function', 'KiB', 'size', 'load ms', 'load', 'load CPU ms', 'load CPU', ''], rows),
  ].join('\n');
}

export function requestReport(r: RequestResults): string {
  const rows = r.rows.map((row) => [
    row.endpoint,
    row.scenario,
    row.measured.map((m) => (m.size === '-' ? String(m.requests) : `${m.requests} (${m.size})`)).join('  vs  '),
    row.expect === 'grows' ? 'grows by design' : row.constant === null ? '' : row.constant ? 'constant' : 'NOT CONSTANT',
  ]);
  return ['DynamoDB requests per call', table(['endpoint', 'scenario', 'requests', ''], rows, 3)].join('\n');
}

export function latencyReport(r: LatencyResults): string {
  const rows = r.calls.map((c) => [
    c.name,
    c.requests.max,
    c.itemsRead,
    kb(c.bytesRead),
    c.handler.median.toFixed(2),
    c.handler.p95.toFixed(2),
    c.floor.median.toFixed(2),
    c.floor.p95.toFixed(2),
    `${c.ratio}x${flag(c.violation !== null)}`,
  ]);
  return [
    `Latency in-process vs the bare DynamoDB requests (ms, ${r.runs} runs after ${r.warmup} warm-up; target <= ${TARGETS.latencyRatio}x)`,
    table(['call', 'requests', 'items', 'KiB', 'median', 'p95', 'floor median', 'floor p95', 'ratio'], rows),
  ].join('\n');
}

export function scaleReport(r: ScaleResults): string {
  const rows = r.rows.map((row) => [
    row.call,
    `${row.small.handler.median.toFixed(2)} / ${row.small.handler.p95.toFixed(2)}`,
    `${row.large.handler.median.toFixed(2)} / ${row.large.handler.p95.toFixed(2)}`,
    `${row.growth}x`,
    `${row.small.floor.median.toFixed(2)} -> ${row.large.floor.median.toFixed(2)}`,
    `${row.small.requests.max} -> ${row.large.requests.max}`,
    `${row.small.itemsRead} -> ${row.large.itemsRead}`,
    `${kb(row.small.bytesRead)} -> ${kb(row.large.bytesRead)}`,
  ]);
  return [
    `Scale: a site of ${r.smallIdeas} ideas vs ${r.largeIdeas} (ms median / p95; largest tally item ${r.tallyBytes.small} B -> ${r.tallyBytes.large} B)`,
    table(['call', `${r.smallIdeas} ideas`, `${r.largeIdeas} ideas`, 'growth', 'floor', 'requests', 'items read', 'KiB read'], rows),
  ].join('\n');
}

export function localReport(r: LocalResults): string {
  const t = localTable(r);
  return [`Local start: npm start -- --in-memory, ${r.runs} starts (${t.caption})`, table(t.headers, t.rows)].join('\n');
}
