/**
 * Each section of bench/results.json carries the record of the run that produced its figures
 * (scripts/bench/section-run.ts), and the docs caption each section's figures from that record, not
 * from the file's header (which describes the last `npm run bench` only, often a rerun of one section).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { latestMarkdown, type Results } from '../../../scripts/bench/markdown.ts';
import { runCaption, runCell, type SectionRun } from '../../../scripts/bench/section-run.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const results = JSON.parse(read('bench/results.json')) as Results;
const SECTIONS = ['bundles', 'requests', 'latency', 'scale', 'anonymize', 'results', 'local'] as const;
const runOf = (section: (typeof SECTIONS)[number]) => (results[section] as { run?: SectionRun } | undefined)?.run;

/** The block of a page between its `<!-- name:start -->` and `<!-- name:end -->` markers. */
const block = (path: string, name: string) => new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(read(path))?.[1] ?? '';

describe('the run records of bench/results.json', () => {
  it.each(SECTIONS)('section %s has its own: when, load at its start, the Node that ran it', (section) => {
    const run = runOf(section);
    expect(run, `${section}.run`).toBeDefined();
    expect(Number.isNaN(Date.parse(run!.generatedAt))).toBe(false);
    expect(run!.loadAverageAtStart).toHaveLength(3);
    expect(run!.node).toMatch(/^v\d+\./);
    expect(run!.cpus).toBeGreaterThan(0);
  });

  it('a section the last invocation ran has a record of that invocation, measured over the section itself', () => {
    const ran = results.config.sections.filter((s): s is (typeof SECTIONS)[number] => (SECTIONS as readonly string[]).includes(s));
    expect(ran.length).toBeGreaterThan(0);
    for (const section of ran) {
      const run = runOf(section)!;
      expect(run.recoveredFrom, section).toBeUndefined();
      expect(Date.parse(run.generatedAt)).toBeGreaterThanOrEqual(Date.parse(results.generatedAt));
      expect(run.loadAverageAtEnd).toHaveLength(3);
      expect(run.seconds).toBeGreaterThan(0);
      expect(run.seconds!).toBeLessThanOrEqual(results.durationSeconds + 1);
    }
  });

  it('the timed sections record the knobs that shape their figures', () => {
    expect(Object.keys(runOf('latency')!.config).sort()).toEqual(['runs', 'warmup']);
    expect(Object.keys(runOf('scale')!.config).sort()).toEqual(['runs', 'scaleIdeas', 'warmup']);
    expect(Object.keys(runOf('bundles')!.config)).toEqual(['loadRuns']);
    expect(runOf('latency')!.config.runs).toBe(results.latency!.runs);
    expect(runOf('local')!.config.localRuns).toBe(results.local!.runs);
  });
});

describe('the docs say, per section, the run that produced its figures', () => {
  const latest = block('docs/benchmarks.md', 'bench-latest');

  it.each(['bundles', 'requests', 'latency', 'scale'] as const)('docs/benchmarks.md: the %s table is captioned by its own record', (section) => {
    expect(latest).toContain(runCaption(runOf(section), section));
  });

  it('docs/benchmarks.md: the local start, docs/results.md and docs/lifecycle.md likewise', () => {
    expect(block('docs/benchmarks.md', 'bench-local').split('\n')[0]).toBe(runCaption(runOf('local'), 'local'));
    expect(block('docs/results.md', 'bench-results').startsWith(runCaption(runOf('results'), 'results'))).toBe(true);
    expect(block('docs/lifecycle.md', 'bench-anonymize').split('\n')[0]).toBe(runCaption(runOf('anonymize'), 'anonymize'));
  });

  it("a section the last invocation did not rerun keeps its own date and load under its table", () => {
    const headerMinute = results.generatedAt.slice(0, 16).replace('T', ' ');
    const tables = latest.split('\n#### ').slice(1);
    const kept = (['bundles', 'latency', 'scale'] as const).filter((s) => !results.config.sections.includes(s));
    for (const section of kept) {
      const run = runOf(section)!;
      const table = tables.find((t) => t.includes(`(section \`${section}\`)`)) ?? '';
      expect(table, section).toContain(`Run of ${run.generatedAt.slice(0, 16).replace('T', ' ')} UTC`);
      expect(table, section).toContain(`load average ${run.loadAverageAtStart[0]} at`);
      if (run.generatedAt.slice(0, 16) !== results.generatedAt.slice(0, 16)) expect(table, section).not.toContain(headerMinute);
    }
    // A caption is a function of the record alone: another record gives another caption.
    const later = { ...runOf('latency')!, generatedAt: '2030-01-01T00:00:00.000Z', loadAverageAtStart: [99, 99, 99] };
    expect(runCaption(later, 'latency')).toContain('Run of 2030-01-01 00:00 UTC');
    expect(runCaption(later, 'latency')).toContain('load average 99 at');
  });

  it('the README rows name the date and load of their own section', () => {
    const readme = block('README.md', 'bench-summary');
    const row = (measure: string) => readme.split('\n').find((line) => line.startsWith(`| ${measure}`)) ?? '';
    expect(row('DynamoDB requests: vote round')).toContain(`| ${runCell(runOf('requests'), 'requests')} |`);
    expect(row('latency vs')).toContain(`| ${runCell(runOf('latency'), 'latency')} |`);
    expect(row('bundle size')).toContain(`| ${runCell(runOf('bundles'), 'bundles')} |`);
    expect(row('`npm start')).toContain(`| ${runCell(runOf('local'), 'local')} |`);
  });

  it('a section without a record fails the docs rather than borrowing the header', () => {
    const { run: _run, ...latency } = results.latency!;
    expect(() => latestMarkdown({ ...results, latency: latency as NonNullable<Results['latency']> })).toThrow(/latency has no run record/);
  });
});
