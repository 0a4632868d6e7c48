/**
 * The local-start figures in docs/benchmarks.md and the README are those of bench/results.json
 * (`npm run bench`, section `local`), printed by scripts/bench/markdown.ts, never typed by hand.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { localMarkdown } from '../../../scripts/bench/markdown.ts';
import type { LocalResults } from '../../../scripts/bench/local.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const local = (JSON.parse(read('bench/results.json')) as { local: LocalResults }).local;

describe('the local-start figures', () => {
  it('are in bench/results.json with the local-stack targets', () => {
    expect(local.targets).toEqual({ readySeconds: 5, rssMiB: 1024, reloadSeconds: 2 });
    expect(local.runs).toBe(local.each.length);
  });

  it('in docs/benchmarks.md are the table markdown.ts prints from bench/results.json', () => {
    const docs = read('docs/benchmarks.md');
    const block = /<!-- bench-local:start -->\n([\s\S]*?)\n<!-- bench-local:end -->/.exec(docs)?.[1];
    expect(block).toBe(localMarkdown(local).docs);
  });

  it('in the README are the row markdown.ts prints from bench/results.json', () => {
    expect(read('README.md').split('\n')).toContain(localMarkdown(local).readmeRow);
  });
});
