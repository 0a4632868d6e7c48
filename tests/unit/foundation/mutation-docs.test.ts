/**
 * The mutation scores in docs/testing.md are those of reports/mutation-score.json,
 * which scripts/mutation-summary.ts computes from Stryker's own report; never typed by hand.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mutationTable, type MutationScores } from '../../../scripts/mutation-summary.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

describe('the mutation scores in docs/testing.md', () => {
  it('are the table of reports/mutation-score.json', () => {
    const scores = JSON.parse(read('reports/mutation-score.json')) as MutationScores;
    const block = /<!-- mutation:start -->\n([\s\S]*?)\n<!-- mutation:end -->/.exec(read('docs/testing.md'))?.[1];
    expect(block).toBe(mutationTable(scores));
  });

  it('cover the five rule folders', () => {
    const scores = JSON.parse(read('reports/mutation-score.json')) as MutationScores;
    expect(Object.keys(scores.folders).sort()).toEqual(['lib/auth', 'lib/extra-data', 'lib/http', 'lib/oauth', 'lib/votes']);
  });
});
