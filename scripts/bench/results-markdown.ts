/**
 * The results section's figures (results-compute.ts, results-read.ts) as docs/results.md shows them:
 * `npx tsx scripts/bench/markdown.ts --update-docs` writes this between the bench-results markers of
 * docs/results.md; tests/unit/bench/results-docs.test.ts fails when the page and bench/results.json
 * disagree. Nothing here is typed by hand but the column headings.
 */
import type { ComputeRow } from './results-compute.ts';
import type { JobMemoryBench } from './results-job.ts';
import type { Summary } from './stats.ts';
import { md } from './md-table.ts';
import { runCaption, type SectionRun } from './section-run.ts';

export interface ResultsReadRow {
  name: string;
  requests: { min: number; max: number };
  commands: Record<string, number>;
  handler: Summary;
  floor: Summary;
  bodyBytes: number;
  chunks: number;
}

export interface ResultsBench {
  /** The run that produced these figures (section-run.ts). */
  run: SectionRun;
  /** Seconds a results job run may compute (the job's Lambda timeout minus what it keeps free). */
  jobWorkSeconds: number;
  compute: ComputeRow[];
  read: ResultsReadRow[];
  /** The job's read and computation of a 100,000-ballot site, with its memory (results-job.ts). */
  job?: JobMemoryBench;
}

const STEP = { read: 'the ballots read (consistent Query pages), alone', job: 'the whole job: read, Equal Shares, greedy, snapshot written' } as const;

function jobMarkdown(j: JobMemoryBench): string[] {
  const peak = Math.max(...j.rows.map((row) => row.peakRssMiB));
  const holds = peak * 2 ** 20 < j.lambdaMemoryMB * 1e6;
  return [
    '',
    `The results job at city scale: ${int(j.ballots)} ballots of ${int(j.ideas)} ideas (the 500 × 100,000 vote above, 15% budget) in DynamoDB Local, ` +
      `about ${(j.ballotBytes / 1e6).toFixed(1)} MB of ballots as read (JSON); each step in a fresh Node process, so its peak resident memory is its own:`,
    '',
    md(
      ['step', 'wall ms', 'requests', 'ballots held in heap MiB', 'peak RSS MiB', 'of which Node and modules MiB'],
      j.rows.map((row) => [
        STEP[row.mode],
        row.ms,
        Object.entries(row.commands)
          .map(([command, n]) => `${n} ${command.replace(/Command$/, '')}`)
          .join(' + '),
        row.heldMiB ?? '-',
        row.peakRssMiB,
        row.baselineRssMiB,
      ]),
    ),
    '',
    `Peak: ${peak} MiB against the job's ${j.lambdaMemoryMB} MB Lambda: ${holds ? `it holds it, with ${Math.round(j.lambdaMemoryMB * 1e6 / 2 ** 20 - peak)} MiB to spare` : 'it does NOT hold it'}.`,
  ];
}

const int = (n: number) => n.toLocaleString('en-US');
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

export function resultsMarkdown(r: ResultsBench): string {
  const worst = Math.max(...r.compute.map((c) => c.totalMs));
  return [
    `${runCaption(r.run, 'results')} \`BENCH_ONLY=results npm run bench\` reruns it alone.`,
    '',
    'The whole computation, in CPU milliseconds of one process: grouping the ballots (profile), the add-one search of Equal Shares, the greedy rule.',
    '',
    md(
      ['ideas', 'ballots', 'budget share', 'approvals', 'distinct ballots', 'runs', 'funded', 'profile ms', 'search ms', 'ms per run', 'greedy ms', 'CPU ms in all'],
      r.compute.map((c) => [int(c.ideas), int(c.ballots), `${Math.round(c.budgetShare * 100)}%`, int(c.approvals), int(c.groups), int(c.runs), c.funded, c.profileMs, c.searchMs, c.msPerRun, c.greedyMs, c.totalMs]),
      0,
    ),
    '',
    `The slowest case takes ${(worst / 1000).toFixed(1)} s of CPU; a results job run may compute for ${r.jobWorkSeconds} s, so each case ends within one run ` +
      `(${Math.floor((r.jobWorkSeconds * 1000) / worst)} times over for the slowest), and a search that does not stores its progress and goes on at the next run.`,
    '',
    'Reading a snapshot (the 200 × 5,000 body; `GET /results` anonymous, in process against DynamoDB Local, next to its bare requests):',
    '',
    md(
      ['call', 'stored body', 'requests', 'median ms', 'p95 ms', 'floor median ms'],
      r.read.map((row) => [
        row.name,
        `${kib(row.bodyBytes)} KiB gzipped, ${row.chunks === 0 ? 'in the head' : `${row.chunks} chunks`}`,
        Object.entries(row.commands)
          .map(([command, n]) => `${n} ${command.replace(/Command$/, '')}`)
          .join(' + '),
        row.handler.median,
        row.handler.p95,
        row.floor.median,
      ]),
    ),
    ...(r.job ? jobMarkdown(r.job) : []),
  ].join('\n');
}
