/**
 * The mutation score per folder, from Stryker's JSON report: `npm run mutation`
 * writes reports/mutation/mutation.json (not committed: it holds the source); this script reduces it
 * to reports/mutation-score.json (committed) and prints the docs table, which
 * tests/unit/foundation/mutation-docs.test.ts holds in step with docs/testing.md.
 *
 *   npx tsx scripts/mutation-summary.ts            # write reports/mutation-score.json from the report
 *   npx tsx scripts/mutation-summary.ts --docs     # also rewrite the table in docs/testing.md
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface FolderScore {
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** Stryker's score: detected / (all valid mutants), in percent. */
  score: number;
  /** Detected / (mutants some test runs), in percent: how well the code the tests reach is checked. */
  scoreCovered: number;
}

export interface MutationScores {
  generatedAt: string;
  testRunner: string;
  tests: string;
  folders: Record<string, FolderScore>;
}

const VALID = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

function summarize(report: { files: Record<string, { mutants: Array<{ status: string }> }> }): Record<string, FolderScore> {
  const folders: Record<string, FolderScore> = {};
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const folder = file.split('/').slice(0, 2).join('/');
    const f = (folders[folder] ??= { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, score: 0, scoreCovered: 0 });
    for (const m of mutants) {
      if (!VALID.has(m.status)) continue;
      f.mutants++;
      if (m.status === 'Killed') f.killed++;
      if (m.status === 'Timeout') f.timeout++;
      if (m.status === 'Survived') f.survived++;
      if (m.status === 'NoCoverage') f.noCoverage++;
    }
  }
  for (const f of Object.values(folders)) {
    const detected = f.killed + f.timeout;
    f.score = f.mutants ? Math.round((1000 * detected) / f.mutants) / 10 : 0;
    const covered = f.mutants - f.noCoverage;
    f.scoreCovered = covered ? Math.round((1000 * detected) / covered) / 10 : 0;
  }
  return folders;
}

export function mutationTable(scores: MutationScores): string {
  const rows = Object.entries(scores.folders)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, f]) => `| \`${folder}\` | ${f.mutants} | ${f.killed + f.timeout} | ${f.survived} | ${f.noCoverage} | ${f.score} % | ${f.scoreCovered} % |`);
  return [
    `Run of ${scores.generatedAt.slice(0, 10)} (${scores.testRunner}, ${scores.tests}); target ≥ 85 % per folder.`,
    '',
    '| folder | mutants | detected | survived | no test reaches it | score | score of reached code |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

const DOCS_BLOCK = /(<!-- mutation:start -->\n)[\s\S]*?(\n<!-- mutation:end -->)/;

if (process.argv[1] && /mutation-summary\.ts$/.test(process.argv[1])) {
  const report = 'reports/mutation/mutation.json';
  if (!existsSync(report)) throw new Error(`${report} is missing: run \`npm run mutation\` first`);
  const scores: MutationScores = {
    generatedAt: new Date().toISOString(),
    testRunner: 'Stryker with the vitest runner',
    tests: 'unit tests only (stryker.vitest.config.ts)',
    folders: summarize(JSON.parse(readFileSync(report, 'utf8'))),
  };
  writeFileSync('reports/mutation-score.json', `${JSON.stringify(scores, null, 2)}\n`);
  if (process.argv.includes('--docs')) {
    const docs = readFileSync('docs/testing.md', 'utf8');
    if (!DOCS_BLOCK.test(docs)) throw new Error('docs/testing.md has no mutation markers');
    writeFileSync('docs/testing.md', docs.replace(DOCS_BLOCK, (_m, open: string, close: string) => `${open}${mutationTable(scores)}${close}`));
  }
  console.log(mutationTable(scores));
}
