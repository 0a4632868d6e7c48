/**
 * `npm run verify-votes -- --site N`: checks a site's vote record against the local stack of
 * `npm start` (same table; DynamoDB at DYNAMODB_ENDPOINT, else the running npm start's), like
 * `npm run job`. What it checks: lib/votes/verify.ts. Exit code 0 when every tally, ballot chain and
 * the latest checkpoint agree; 1 with a report of each difference (or when it could not run: no
 * stack); 2 on a usage error or a site that does not exist (an OK for a site that is not there
 * would say nothing true).
 */
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';

const USAGE = 'usage: npm run verify-votes -- --site N';

/** The site id of the command line; throws the usage on anything else. */
export function parseVerifyCommand(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { site: { type: 'string' } } });
  if (positionals.length > 0 || values.site === undefined || !/^[1-9][0-9]{0,14}$/.test(values.site)) throw new Error(USAGE);
  return Number(values.site);
}

/** Runs the check; the exit code and the report text. */
export async function verifyCommand(siteId: number): Promise<{ code: 0 | 1; output: string }> {
  const { verifySiteVotes, formatVerifyReport } = await import('#lib/votes/verify');
  const report = await verifySiteVotes(siteId);
  return { code: report.problems.length === 0 ? 0 : 1, output: formatVerifyReport(report) };
}

const main = () =>
  runLocalScript('verify-votes', parseVerifyCommand, async (siteId: number) => {
    const { code, output } = await verifyCommand(siteId);
    (code === 0 ? console.log : console.error)(output);
    return code;
  }, { siteOf: (siteId) => siteId });

exitWhenMain(import.meta.url, main);
