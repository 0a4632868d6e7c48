/**
 * The run record each section of bench/results.json carries under `run`: when the section ran, the
 * machine's load average at its start and end, the knobs that shape its figures, and its seconds.
 * `BENCH_ONLY` reruns some sections and keeps the others' figures from the previous file; each kept
 * section keeps its own record with them, so a table's caption in the docs (runCaption) names the run
 * that produced its figures, not the last invocation of `npm run bench`.
 */
import { cpus, loadavg } from 'node:os';

/** The knobs of scripts/bench/config.ts that can change a section's figures. */
export interface SectionKnobs {
  runs?: number;
  warmup?: number;
  loadRuns?: number;
  scaleIdeas?: number;
  anonymizeUsers?: number;
  anonymizeSeconds?: number;
  localRuns?: number;
}

export interface SectionRun {
  /** When the section started (ISO 8601, UTC). */
  generatedAt: string;
  cpus: number;
  node: string;
  /** 1, 5 and 15-minute load averages when the section started and when it ended. */
  loadAverageAtStart: number[];
  /** Absent only in records recovered from a file that did not hold it. */
  loadAverageAtEnd?: number[];
  config: SectionKnobs;
  /** Wall seconds of the section's own measurement (not the shared DynamoDB Local start or seeding). */
  seconds?: number;
  /**
   * Set on records recovered from the git history of bench/results.json (written before sections had
   * records): the commit whose file holds the run, and what the load averages there are of.
   */
  recoveredFrom?: { commit: string; loadAverageOf: 'invocation' | 'section' };
}

/** A section's figures with the record of the run that produced them. */
export type WithRun<T> = T & { run: SectionRun };

const loadNow = () => loadavg().map((l) => Math.round(l * 100) / 100);

/** Starts a section's record now; `finish()` closes it (several phases: `resume()` / `pause()`). */
export function startSection(config: SectionKnobs) {
  const run = { generatedAt: new Date().toISOString(), cpus: cpus().length, node: process.version, loadAverageAtStart: loadNow(), config };
  let ms = 0;
  let since: number | undefined = performance.now();
  return {
    pause() {
      if (since !== undefined) ms += performance.now() - since;
      since = undefined;
    },
    resume() {
      since ??= performance.now();
    },
    finish(): SectionRun {
      this.pause();
      return { ...run, loadAverageAtEnd: loadNow(), seconds: Math.round(ms / 100) / 10 };
    },
  };
}

const KNOB_TEXT: { [K in keyof Required<SectionKnobs>]: (n: number) => string } = {
  runs: (n) => `${n} timed runs per call`,
  warmup: (n) => `${n} warm-up runs`,
  loadRuns: (n) => `${n} cold imports per bundle`,
  scaleIdeas: (n) => `${n.toLocaleString('en-US')} ideas on the large site`,
  anonymizeUsers: (n) => `${n.toLocaleString('en-US')} users`,
  anonymizeSeconds: (n) => `a ${n} s window`,
  localRuns: (n) => `${n} starts`,
};

/** One sentence for a table's caption: the run that produced its figures, from its own record. */
export function runCaption(run: SectionRun | undefined, section: string): string {
  if (!run) throw new Error(`bench/results.json: section ${section} has no run record`);
  const end = run.loadAverageAtEnd ? ` and ${run.loadAverageAtEnd[0]} at the end` : '';
  const load =
    run.recoveredFrom?.loadAverageOf === 'invocation'
      ? `load average ${run.loadAverageAtStart[0]} at the start${end} of the \`npm run bench\` that ran it`
      : `load average ${run.loadAverageAtStart[0]} at start${end}`;
  const knobs = (Object.keys(KNOB_TEXT) as (keyof SectionKnobs)[])
    .filter((k) => run.config[k] !== undefined)
    .map((k) => KNOB_TEXT[k](run.config[k]!));
  return (
    `Run of ${run.generatedAt.slice(0, 16).replace('T', ' ')} UTC (section \`${section}\`): ${run.cpus} CPUs, Node ${run.node}, ` +
    load +
    `${knobs.length ? `; ${knobs.join(', ')}` : ''}${run.seconds === undefined ? '' : `; ${run.seconds} s`}.`
  );
}

/** The README table's cell: the date and load of the run behind a row. */
export function runCell(run: SectionRun | undefined, section: string): string {
  if (!run) throw new Error(`bench/results.json: section ${section} has no run record`);
  return `${run.generatedAt.slice(0, 10)}, load ${run.loadAverageAtStart[0]}`;
}
