/**
 * The mutation scores in docs/testing.md are those of reports/mutation-score.json,
 * which scripts/mutation-summary.ts computes from Stryker's own report; never typed by hand.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderOf, mergeScores, mutationTable, summarize, type FolderScore, type MutationScores } from '../../../scripts/mutation-summary.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const scores = () => JSON.parse(read('reports/mutation-score.json')) as MutationScores;

describe('the mutation scores in docs/testing.md', () => {
  it('are the table of reports/mutation-score.json', () => {
    const block = /<!-- mutation:start -->\n([\s\S]*?)\n<!-- mutation:end -->/.exec(read('docs/testing.md'))?.[1];
    expect(block).toBe(mutationTable(scores()));
  });

  it('list the folders stryker.config.json mutates, and only those', () => {
    const config = JSON.parse(read('stryker.config.json')) as { mutate: string[] };
    const recorded = scores();
    expect(recorded.mutate).toEqual([...new Set(config.mutate.map(folderOf))].sort());
    for (const folder of Object.keys(recorded.folders)) expect(recorded.mutate).toContain(folder);
  });

  it('say for each folder when it was measured', () => {
    for (const f of Object.values(scores().folders)) expect(new Date(f.measuredAt).toISOString()).toBe(f.measuredAt);
  });
});

describe('recording one folder measured alone', () => {
  const at = (measuredAt: string): FolderScore => ({ measuredAt, mutants: 1, killed: 1, timeout: 0, survived: 0, noCoverage: 0, score: 100, scoreCovered: 100 });

  it('replaces that folder, keeps the others with their own time and drops folders no longer mutated', () => {
    const previous = { 'lib/a': at('2026-01-01T00:00:00.000Z'), 'lib/b': at('2026-01-01T00:00:00.000Z'), 'lib/gone': at('2026-01-01T00:00:00.000Z') };
    const merged = mergeScores(previous, { 'lib/b': at('2026-02-02T00:00:00.000Z') }, ['lib/a', 'lib/b', 'lib/c']);
    expect(merged).toEqual({ 'lib/a': at('2026-01-01T00:00:00.000Z'), 'lib/b': at('2026-02-02T00:00:00.000Z') });
  });

  it('counts a report per folder, stamped with the time of its run', () => {
    const report = {
      files: {
        'lib/a/x.ts': { mutants: [{ status: 'Killed' }, { status: 'Survived' }, { status: 'CompileError' }] },
        'lib/a/y/z.ts': { mutants: [{ status: 'Timeout' }, { status: 'NoCoverage' }] },
      },
    };
    expect(summarize({ report, measuredAt: '2026-03-03T00:00:00.000Z' })).toEqual({
      'lib/a': { measuredAt: '2026-03-03T00:00:00.000Z', mutants: 4, killed: 1, timeout: 1, survived: 1, noCoverage: 1, score: 50, scoreCovered: 66.7 },
    });
  });

  it('adds up a folder measured in parts, stamped with the later run', () => {
    const early = { report: { files: { 'lib/a/x.ts': { mutants: [{ status: 'Killed' }] }, 'lib/b/y.ts': { mutants: [{ status: 'Killed' }] } } }, measuredAt: '2026-03-03T00:00:00.000Z' };
    const late = { report: { files: { 'lib/a/z.ts': { mutants: [{ status: 'Survived' }] } } }, measuredAt: '2026-03-03T01:00:00.000Z' };
    const folders = summarize(late, early);
    expect(folders['lib/a']).toMatchObject({ measuredAt: '2026-03-03T01:00:00.000Z', mutants: 2, killed: 1, survived: 1, score: 50 });
    expect(folders['lib/b']).toMatchObject({ measuredAt: '2026-03-03T00:00:00.000Z', mutants: 1, score: 100 });
  });
});
