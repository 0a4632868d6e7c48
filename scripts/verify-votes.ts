/**
 * `npm run verify-votes -- --receipt <receipt|file|json> --checkpoint-url <url> [--key-url <url> [--key-copied-at <time>]] [--voted-at <time>]`: a
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
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { assertKeyUrl, instantOf, readReceiptArgument, siteOfCheckpointUrl, verifyReceipt, type ReceiptCommand } from './verify-receipt.ts';
import { isIdText } from '#schemas/common';

const USAGE = 'usage: npm run verify-votes -- --site N [--pin <checkpoint json|file|url>]\n       npm run verify-votes -- --receipt <receipt|file|json> --checkpoint-url <api>/api/site/<id>/vote-record/checkpoint [--key-url <url> [--key-copied-at <ISO time>]] [--voted-at <ISO time>]';

const OPTIONS = { site: { type: 'string' }, pin: { type: 'string' }, receipt: { type: 'string' }, 'checkpoint-url': { type: 'string' }, 'key-url': { type: 'string' }, 'key-copied-at': { type: 'string' }, 'voted-at': { type: 'string' } } as const;

/** A site to audit, and a checkpoint kept outside the table that its log must extend. */
export interface SiteCommand {
  siteId: number;
  /** The checkpoint as JSON, a file holding it, or a URL answering it. */
  pin?: string;
}

/** The site of the command line; throws the usage on anything else (a receipt check included). */
export function parseVerifyCommand(argv: string[]): SiteCommand {
  const command = parseVerifyArguments(argv);
  if (!('siteId' in command)) throw new Error(USAGE);
  return command;
}

/** A site to audit against the table, or a receipt to check over HTTP; throws the usage on anything else. */
export function parseVerifyArguments(argv: string[]): SiteCommand | ReceiptCommand {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw new Error(USAGE, { cause: err });
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new Error(USAGE);
  if (values.receipt !== undefined || values['checkpoint-url'] !== undefined || values['key-url'] !== undefined || values['key-copied-at'] !== undefined || values['voted-at'] !== undefined) {
    if (values.site !== undefined || values.pin !== undefined || values.receipt === undefined || values['checkpoint-url'] === undefined) throw new Error(USAGE);
    try {
      siteOfCheckpointUrl(values['checkpoint-url']);
      readReceiptArgument(values.receipt);
      if (values['voted-at'] !== undefined && instantOf(values['voted-at']) === undefined) throw new Error(`--voted-at: "${values['voted-at']}" is not an ISO time`);
      if (values['key-copied-at'] !== undefined && (values['key-url'] === undefined || instantOf(values['key-copied-at']) === undefined)) {
        throw new Error(`--key-copied-at: "${values['key-copied-at']}" is not an ISO time, or no --key-url names the copy it dates`);
      }
      if (values['key-url'] !== undefined) assertKeyUrl(values['key-url']);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${USAGE}`, { cause: err });
    }
    return {
      receipt: values.receipt,
      checkpointUrl: values['checkpoint-url'],
      ...(values['key-url'] !== undefined ? { keyUrl: values['key-url'] } : {}),
      ...(values['voted-at'] !== undefined ? { votedAt: values['voted-at'] } : {}),
      ...(values['key-copied-at'] !== undefined ? { keyCopiedAt: values['key-copied-at'] } : {}),
    };
  }
  if (values.site === undefined || !isIdText(values.site)) throw new Error(USAGE);
  return { siteId: Number(values.site), ...(values.pin !== undefined ? { pin: values.pin } : {}) };
}

/**
 * The pinned checkpoint: JSON text, a file, or a URL (its `checkpoint` member when it wraps one, as a
 * receipt's proof does). The published answers name no site: it is the audited one's (the signed text
 * names the site, so a checkpoint of another site fails its signature).
 */
export async function readPinnedCheckpoint(pin: string, siteId: number): Promise<SignedCheckpoint> {
  const text = /^https?:\/\//.test(pin) ? await (await fetch(pin)).text() : pin.trimStart().startsWith('{') ? pin : await readFile(pin, 'utf8');
  const parsed = JSON.parse(text) as SignedCheckpoint | { checkpoint: SignedCheckpoint };
  const checkpoint: Partial<SignedCheckpoint> & Omit<SignedCheckpoint, 'siteId'> = 'checkpoint' in parsed ? parsed.checkpoint : parsed;
  return { ...checkpoint, siteId: checkpoint.siteId ?? siteId };
}

/** Runs the check; the exit code and the report text. */
export async function verifyCommand(siteId: number, pin?: string): Promise<{ code: 0 | 1; output: string }> {
  const { verifySiteVotes, formatVerifyReport } = await import('#lib/results/verify');
  const report = await verifySiteVotes(siteId, new Date(), pin === undefined ? {} : { pinned: await readPinnedCheckpoint(pin, siteId) });
  return { code: report.problems.length === 0 ? 0 : 1, output: formatVerifyReport(report) };
}

async function main(): Promise<number> {
  let command: SiteCommand | ReceiptCommand;
  try {
    command = parseVerifyArguments(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  if ('siteId' in command) return siteMain();
  const { code, output } = await verifyReceipt(command);
  (code === 0 ? console.log : console.error)(output);
  return code;
}

const siteMain = () =>
  runLocalScript('verify-votes', parseVerifyCommand, async ({ siteId, pin }: SiteCommand) => {
    const { code, output } = await verifyCommand(siteId, pin);
    (code === 0 ? console.log : console.error)(output);
    return code;
  }, { siteOf: (command) => command.siteId });

exitWhenMain(import.meta.url, main);
