/**
 * `npm run verify-votes -- --receipt <receipt|file|json> --checkpoint-url <url> [--key-url <url>]`: a
 * voter's check of their receipt against the published record over HTTP, no table needed
 * (scripts/verify-receipt.ts). Exit 0 when it holds, 1 with what failed, 2 on a usage error.
 *
 * `npm run verify-votes -- --site N`: checks a site's vote record against the local stack of
 * `npm start` (same table; DynamoDB at DYNAMODB_ENDPOINT, else the running npm start's), like
 * `npm run job`. What it checks: lib/results/verify.ts. Exit code 0 when every tally, ballot chain and
 * the latest checkpoint agree; 1 with a report of each difference (or when it could not run: no
 * stack); 2 on a usage error or a site that does not exist (an OK for a site that is not there
 * would say nothing true).
 */
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { readReceiptArgument, siteOfCheckpointUrl, verifyReceipt, type ReceiptCommand } from './verify-receipt.ts';

const USAGE = 'usage: npm run verify-votes -- --site N\n       npm run verify-votes -- --receipt <receipt|file|json> --checkpoint-url <api>/api/site/<id>/vote-record/checkpoint [--key-url <url>]';

const OPTIONS = { site: { type: 'string' }, receipt: { type: 'string' }, 'checkpoint-url': { type: 'string' }, 'key-url': { type: 'string' } } as const;

/** The site id of the command line; throws the usage on anything else (a receipt check included). */
export function parseVerifyCommand(argv: string[]): number {
  const command = parseVerifyArguments(argv);
  if (typeof command !== 'number') throw new Error(USAGE);
  return command;
}

/** A site to audit against the table, or a receipt to check over HTTP; throws the usage on anything else. */
export function parseVerifyArguments(argv: string[]): number | ReceiptCommand {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw new Error(USAGE, { cause: err });
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new Error(USAGE);
  if (values.receipt !== undefined || values['checkpoint-url'] !== undefined || values['key-url'] !== undefined) {
    if (values.site !== undefined || values.receipt === undefined || values['checkpoint-url'] === undefined) throw new Error(USAGE);
    try {
      siteOfCheckpointUrl(values['checkpoint-url']);
      readReceiptArgument(values.receipt);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${USAGE}`, { cause: err });
    }
    return { receipt: values.receipt, checkpointUrl: values['checkpoint-url'], ...(values['key-url'] !== undefined ? { keyUrl: values['key-url'] } : {}) };
  }
  if (values.site === undefined || !/^[1-9][0-9]{0,14}$/.test(values.site)) throw new Error(USAGE);
  return Number(values.site);
}

/** Runs the check; the exit code and the report text. */
export async function verifyCommand(siteId: number): Promise<{ code: 0 | 1; output: string }> {
  const { verifySiteVotes, formatVerifyReport } = await import('#lib/results/verify');
  const report = await verifySiteVotes(siteId);
  return { code: report.problems.length === 0 ? 0 : 1, output: formatVerifyReport(report) };
}

async function main(): Promise<number> {
  let command: number | ReceiptCommand;
  try {
    command = parseVerifyArguments(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  if (typeof command === 'number') return siteMain();
  const { code, output } = await verifyReceipt(command);
  (code === 0 ? console.log : console.error)(output);
  return code;
}

const siteMain = () =>
  runLocalScript('verify-votes', parseVerifyCommand, async (siteId: number) => {
    const { code, output } = await verifyCommand(siteId);
    (code === 0 ? console.log : console.error)(output);
    return code;
  }, { siteOf: (siteId) => siteId });

exitWhenMain(import.meta.url, main);
