/**
 * The figures of docs/results.md "Cost of computing" are those of bench/results.json (`npm run bench`,
 * section `results`), printed by scripts/bench/results-markdown.ts, never typed by hand.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resultsMarkdown, type ResultsBench } from '../../../scripts/bench/results-markdown.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const bench = (JSON.parse(read('bench/results.json')) as { results: ResultsBench }).results;

describe('the results figures', () => {
  it('are in bench/results.json for the sizes a city votes at', () => {
    const sizes = bench.compute.map((c) => `${c.ideas}x${c.ballots}`);
    expect(sizes).toContain('200x5000');
    expect(sizes).toContain('500x100000');
    for (const c of bench.compute) expect(c.runs).toBeGreaterThan(0);
    // An anonymous snapshot read is at most 2 DynamoDB requests, inline or chunked.
    expect(bench.read.length).toBeGreaterThan(0);
    for (const row of bench.read) expect(row.requests.max).toBeLessThanOrEqual(2);
  });

  it('in docs/results.md are the tables results-markdown.ts prints from bench/results.json', () => {
    const block = /<!-- bench-results:start -->\n([\s\S]*?)\n<!-- bench-results:end -->/.exec(read('docs/results.md'))?.[1];
    expect(block).toBe(resultsMarkdown(bench));
  });

  it('leave no hand-typed table of figures in the cost section', () => {
    const section = read('docs/results.md').split('## Cost of computing')[1] ?? '';
    const outside = section.replace(/<!-- bench-results:start -->[\s\S]*?<!-- bench-results:end -->/, '');
    expect(outside).not.toMatch(/^\|.*[0-9]/m);
  });
});
