/**
 * The README's benchmark figures are those of bench/results.json, computed by
 * scripts/bench/readme-summary.ts, never typed by hand (`npx tsx scripts/bench/markdown.ts --update-docs`
 * rewrites them after `npm run bench`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeSummary, type SummaryInput } from '../../../scripts/bench/readme-summary.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

describe("the README's benchmark table", () => {
  it('is the table computed from bench/results.json', () => {
    const results = JSON.parse(read('bench/results.json')) as SummaryInput;
    const block = /<!-- bench-summary:start -->\n([\s\S]*?)\n<!-- bench-summary:end -->/.exec(read('README.md'))?.[1];
    expect(block).toBe(readmeSummary(results));
  });

  it('has no hand-typed figure outside it: the benchmark section holds no other ratio', () => {
    const section = read('README.md').split('## Benchmarks')[1]?.split('\n## ')[0] ?? '';
    const outside = section.replace(/<!-- bench-summary:start -->[\s\S]*?<!-- bench-summary:end -->/, '');
    expect(outside).not.toMatch(/[0-9]\.[0-9]+×/);
  });
});

describe('docs/benchmarks.md', () => {
  it("'Latest figures' is the output of scripts/bench/markdown.ts for bench/results.json", async () => {
    const { latestMarkdown } = await import('../../../scripts/bench/markdown.ts');
    const results = JSON.parse(read('bench/results.json')) as Parameters<typeof latestMarkdown>[0];
    const block = /<!-- bench-latest:start -->\n([\s\S]*?)\n<!-- bench-latest:end -->/.exec(read('docs/benchmarks.md'))?.[1];
    expect(block).toBe(latestMarkdown(results));
  });
});
