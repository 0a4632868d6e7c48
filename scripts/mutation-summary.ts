/**
 * The mutation score per folder, from Stryker's JSON report: `npm run mutation` runs Stryker over every
 * folder of stryker.config.json's `mutate` and then this script, which reduces the report
 * (reports/mutation/mutation.json, not committed: it holds the source) to reports/mutation-score.json
 * (committed) and rewrites the table in docs/testing.md, which
 * tests/unit/foundation/mutation-docs.test.ts holds in step with the file.
 *
 * A full run takes over an hour on two shared cores, so a folder can also be measured alone
 * (`npx stryker run --mutate` with that folder's glob); this script then replaces only the folders that
 * report holds and keeps the others as they were, each with the time it was measured.
 *
 *   npx tsx scripts/mutation-summary.ts                    # merge reports/mutation/mutation.json into reports/mutation-score.json
 *   npx tsx scripts/mutation-summary.ts --report <file>... # merge other Stryker JSON reports (one folder may span several)
 *   npx tsx scripts/mutation-summary.ts --docs             # also rewrite the table in docs/testing.md
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';

export interface FolderScore {
  /** When the Stryker run that measured this folder ended (its JSON report's write time), ISO 8601. */
  measuredAt: string;
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
  /** When this file was last written; each folder says when it was measured. */
  generatedAt: string;
  testRunner: string;
  tests: string;
  /** The folders stryker.config.json mutates; one without an entry in `folders` is not measured yet. */
  mutate: string[];
  folders: Record<string, FolderScore>;
}

type StrykerReport = { files: Record<string, { mutants: Array<{ status: string }> }> };

const VALID = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

/** The folder a `mutate` glob or a mutated file belongs to: its first two path segments (`lib/votes`). */
export const folderOf = (path: string): string => path.split('/').slice(0, 2).join('/');

/**
 * Scores per folder from one or more reports (a folder may be measured in parts: its cheap files in one
 * run, its slow ones in another). A folder is stamped with the time of the latest report holding it.
 */
export function summarize(...reports: Array<{ report: StrykerReport; measuredAt: string }>): Record<string, FolderScore> {
  const files = new Map<string, { mutants: Array<{ status: string }>; measuredAt: string }>();
  for (const { report, measuredAt } of reports) for (const [file, { mutants }] of Object.entries(report.files)) files.set(file, { mutants, measuredAt });
  const folders: Record<string, FolderScore> = {};
  for (const [file, { mutants, measuredAt }] of files) {
    const f = (folders[folderOf(file)] ??= { measuredAt, mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, score: 0, scoreCovered: 0 });
    if (measuredAt > f.measuredAt) f.measuredAt = measuredAt;
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

/**
 * The recorded scores after a run: the folders the run measured replace their entries, the others keep
 * theirs; folders no longer in `mutate` are dropped, so a full run rewrites the whole file.
 */
export function mergeScores(previous: Record<string, FolderScore>, measured: Record<string, FolderScore>, mutate: string[]): Record<string, FolderScore> {
  const merged: Record<string, FolderScore> = {};
  for (const folder of [...mutate].sort()) {
    const entry = measured[folder] ?? previous[folder];
    if (entry) merged[folder] = entry;
  }
  return merged;
}

export function mutationTable(scores: MutationScores): string {
  const rows = [...scores.mutate].sort().map((folder) => {
    const f = scores.folders[folder];
    if (!f) return `| \`${folder}\` | not measured yet | | | | | | |`;
    return `| \`${folder}\` | ${f.measuredAt.slice(0, 16).replace('T', ' ')} UTC | ${f.mutants} | ${f.killed + f.timeout} | ${f.survived} | ${f.noCoverage} | ${f.score} % | ${f.scoreCovered} % |`;
  });
  return [
    `Recorded ${scores.generatedAt.slice(0, 10)} (${scores.testRunner}, ${scores.tests}); target ≥ 85 % per folder.`,
    '',
    '| folder | measured | mutants | detected | survived | no test reaches it | score | score of reached code |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

const DOCS_BLOCK = /(<!-- mutation:start -->\n)[\s\S]*?(\n<!-- mutation:end -->)/;
const SCORES = 'reports/mutation-score.json';

if (process.argv[1] && /mutation-summary\.ts$/.test(process.argv[1])) {
  const named = process.argv.flatMap((arg, i) => (arg === '--report' ? [process.argv[i + 1] ?? ''] : []));
  const reports = named.length ? named : ['reports/mutation/mutation.json'];
  for (const report of reports) if (!existsSync(report)) throw new Error(`${report || '--report needs a file'} is missing: run \`npm run mutation\` first`);
  const config = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as { mutate: string[] };
  const mutate = [...new Set(config.mutate.map(folderOf))].sort();
  const recorded = existsSync(SCORES) ? (JSON.parse(readFileSync(SCORES, 'utf8')) as MutationScores) : undefined;
  // Entries written before folders carried their own time were all measured when that file was written.
  const previous = Object.fromEntries(
    Object.entries((recorded?.folders ?? {}) as Record<string, Omit<FolderScore, 'measuredAt'> & { measuredAt?: string }>).map(([folder, { measuredAt, ...counts }]) => [
      folder,
      { measuredAt: measuredAt ?? recorded?.generatedAt, ...counts },
    ]),
  ) as Record<string, FolderScore>;
  const measured = summarize(
    ...reports.map((report) => ({ report: JSON.parse(readFileSync(report, 'utf8')) as StrykerReport, measuredAt: statSync(report).mtime.toISOString() })),
  );
  const scores: MutationScores = {
    generatedAt: new Date().toISOString(),
    testRunner: 'Stryker with the vitest runner',
    tests: 'unit tests only (stryker.vitest.config.ts)',
    mutate,
    folders: mergeScores(previous, measured, mutate),
  };
  writeFileSync(SCORES, `${JSON.stringify(scores, null, 2)}\n`);
  if (process.argv.includes('--docs')) {
    const docs = readFileSync('docs/testing.md', 'utf8');
    if (!DOCS_BLOCK.test(docs)) throw new Error('docs/testing.md has no mutation markers');
    writeFileSync('docs/testing.md', docs.replace(DOCS_BLOCK, (_m, open: string, close: string) => `${open}${mutationTable(scores)}${close}`));
  }
  console.log(mutationTable(scores));
}
