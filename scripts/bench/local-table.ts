/**
 * The rows of the local-start table (section `local`), shared by the terminal report (report.ts) and
 * the Markdown of docs/benchmarks.md and the README (markdown.ts), so the docs show the figures of
 * bench/results.json and nothing typed by hand (tests/unit/bench/local-docs.test.ts).
 */
import type { LocalResults } from './local.ts';
import { runCaption, runCell } from './section-run.ts';

const s = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${n} s`);
const mib = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toLocaleString('en-US')} MiB`);

export function localTable(local: LocalResults): { caption: string; headers: string[]; rows: string[][] } {
  const t = local.targets;
  const spread = local.each.map((r) => r.readySeconds).join(' / ');
  const b = local.before;
  const rows = [
    ['ready', `≤ ${t.readySeconds} s`, `${s(local.readySeconds)} (median of ${local.runs}: ${spread} s)`, b ? s(b.readySeconds) : ''],
    ['RSS at ready', `≤ ${t.rssMiB.toLocaleString('en-US')} MiB`, mib(local.rssAtReadyMiB), b ? mib(b.rssAtReadyMiB) : ''],
    ['RSS after the first requests', `≤ ${t.rssMiB.toLocaleString('en-US')} MiB`, mib(local.rssAfterRequestsMiB), b ? mib(b.rssAfterRequestsMiB) : ''],
    ['handler edit live', `≤ ${t.reloadSeconds} s`, s(local.reloadSeconds), b ? (b.reloadSeconds === null ? '15-20 s (no reload line to time)' : s(b.reloadSeconds)) : ''],
  ];
  return {
    caption: runCaption(local.run, 'local'),
    headers: ['`npm start -- --in-memory`', 'target', 'latest', 'before (esbuild bundles at start)'],
    rows,
  };
}

/** The one README row: ready / memory / edit live against their targets, and the run they come from. */
export function localReadmeRow(local: LocalResults): string[] {
  const t = local.targets;
  const b = local.before;
  return [
    '`npm start -- --in-memory` (`npm run bench`, section `local`): ready / memory / edit live',
    `≤ ${t.readySeconds} s / ≤ ${t.rssMiB / 1024} GB / ≤ ${t.reloadSeconds} s`,
    `${s(local.readySeconds)} median / ${mib(local.rssAtReadyMiB)} / ${s(local.reloadSeconds)}` +
      (b ? ` (was ${s(b.readySeconds)} / ${(b.rssAtReadyMiB / 1024).toFixed(1)} GB / 15-20 s)` : ''),
    // The start time follows the machine's load: the row says which.
    runCell(local.run, 'local'),
  ];
}
