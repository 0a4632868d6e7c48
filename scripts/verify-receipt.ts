/**
 * `npm run verify-votes -- --receipt <receipt|file|json> --checkpoint-url <url>`: a voter's own check
 * that their vote is in the published vote record, over HTTP only (no table, no key of ours): it
 * fetches the receipt's inclusion proof, the latest checkpoint named by the URL, the consistency proof
 * between the two and the public key, and lib/vote-record/receipt-check.ts decides. docs/results.md
 * "A voter's own check" is the algorithm.
 *
 * `--receipt`: the receipt (64 hex digits, the `receipt` of a vote answer), a file holding the receipt
 * proof (`GET .../vote-receipt/:receipt`) or a vote answer, or that JSON itself. A vote answer also
 * tells when the vote was cast at the earliest (its records' latest `createdAt`); `--voted-at` says it
 * for a bare receipt (a time at or before the vote): the receipt's checkpoint must be cut no earlier. `--checkpoint-url`:
 * `<api>/api/site/<id>/vote-record/checkpoint`, the site's latest checkpoint (the API and site are read
 * from it). `--key-url` (default `<api>/api/vote-record/key`): a copy of the keys kept elsewhere; each
 * checkpoint is checked with the key it names, and an id the keys do not hold is refused. A copy of the
 * one-key answer from before key lists needs `--key-copied-at` (when it was taken). Every URL is https,
 * or http to localhost.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { checkReceipt, type PublishedCheckpoint, type PublishedReceiptProof } from '#lib/vote-record/receipt-check';
import { singleKeyCopy, type PublishedKey } from '#lib/vote-record/key-set';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { consistencyRecord, publicCheckpoint, voteReceiptRecord, voteRecordKeyCopy } from '#schemas/results';
import { isIdText } from '#schemas/common';

export interface ReceiptCommand {
  receipt: string;
  checkpointUrl: string;
  keyUrl?: string;
  /** A time at or before the vote (ISO), if the voter noted one. */
  votedAt?: string;
  /** When the single-key copy at `keyUrl` was taken (ISO): how far it vouches for its key. */
  keyCopiedAt?: string;
}

// The API's own answer schemas (schemas/results.ts): what the verifier reads is what the API documents.
const checkpoint = publicCheckpoint;
const inclusionProof = voteReceiptRecord;
/** The API's answer, or a copy kept from before rotation existed (one key, no `keys`). */
const publishedKeys = voteRecordKeyCopy;
const consistency = consistencyRecord;
const hexHash = z.string().check(z.regex(/^[0-9a-fA-F]{64}$/));
/** A vote answer (its records carry the receipt, and when each vote was cast) or one of its records. */
const voteRecord = z.object({ receipt: hexHash, createdAt: z.optional(z.string()) });
const voteAnswer = z.union([z.array(voteRecord).check(z.minLength(1)), voteRecord]);

/** The checkpoint route's path; its site id is checked as a path id is (schemas/common.ts). */
const CHECKPOINT_PATH = /^(.*)\/api\/site\/([^/]+)\/vote-record\/checkpoint\/?$/;

/** An instant as the API writes them (ISO, milliseconds, UTC), or undefined for what is not one. */
export function instantOf(text: string): string | undefined {
  const ms = Date.parse(text);
  return Number.isFinite(ms) && /^\d{4}-\d{2}-\d{2}T/.test(text) ? new Date(ms).toISOString() : undefined;
}

/**
 * What the receipt argument holds: a bare receipt, a proof already fetched (kept as the voter saved it),
 * or a vote answer, which also says a time the vote was cast at or after (its newest `createdAt`: an
 * entry is written after the votes of its round were stamped).
 */
export function readReceiptArgument(text: string): { receipt: string; proof?: PublishedReceiptProof; castAt?: string } {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return { receipt: trimmed.toLowerCase() };
  const json = trimmed.startsWith('{') || trimmed.startsWith('[') ? trimmed : existsSync(trimmed) ? readFileSync(trimmed, 'utf8') : undefined;
  if (json === undefined) throw new Error(`--receipt: "${text}" is neither 64 hex digits, nor JSON, nor a file`);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('--receipt: the file or text is not JSON');
  }
  const proof = inclusionProof.safeParse(value);
  if (proof.success) return { receipt: proof.data.receipt.toLowerCase(), proof: proof.data as PublishedReceiptProof };
  const answer = voteAnswer.safeParse(value);
  if (answer.success) {
    const records = Array.isArray(answer.data) ? answer.data : [answer.data];
    const receipt = records[0]!.receipt.toLowerCase();
    const times = records.filter((r) => r.receipt.toLowerCase() === receipt).flatMap((r) => (r.createdAt === undefined ? [] : [instantOf(r.createdAt)])).filter((t) => t !== undefined);
    return { receipt, ...(times.length > 0 ? { castAt: times.sort().at(-1)! } : {}) };
  }
  throw new Error('--receipt: the JSON is neither a receipt proof ({receipt, checkpoint, leafIndex, proof}) nor a vote answer with a receipt');
}

/** This machine: the only host the check reads over plain http (`npm start`, the tests). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * https, or http to this machine only: over plain http anyone on the path could answer the proofs and
 * the keys, and the check would vouch for their record. A `data:` URL (a key copy given inline) reads no network.
 */
function assertSecureUrl(url: URL, what: string, inline = false): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) || (inline && url.protocol === 'data:')) return;
  throw new Error(`${what}: "${url.href.slice(0, 100)}" is not https (plain http only to localhost)`);
}

/** `--key-url`: a URL the check may read keys from. */
export function assertKeyUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--key-url: "${url}" is not a URL`);
  }
  assertSecureUrl(parsed, '--key-url', true);
}

export function siteOfCheckpointUrl(url: string): { api: string; siteId: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--checkpoint-url: "${url}" is not a URL`);
  }
  const match = CHECKPOINT_PATH.exec(`${parsed.origin}${parsed.pathname}`);
  if (!match || !isIdText(match[2]!) || !/^https?:$/.test(parsed.protocol)) throw new Error(`--checkpoint-url: expected https://<api>/api/site/<id>/vote-record/checkpoint, got "${url}"`);
  assertSecureUrl(parsed, '--checkpoint-url');
  return { api: match[1]!, siteId: Number(match[2]) };
}

class FetchFailed extends Error {}

const latestOf = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined ? a : a > b ? a : b);

/**
 * Every published key. A single-key copy (the one-key answer from before key lists) vouches for its key
 * only up to when it was copied (lib/vote-record/key-set.ts `singleKeyCopy`): that time is the voter's
 * `--key-copied-at`, never later than this check, and never what the copy's server says (a
 * `Last-Modified` is the time of an upload, and a future one would stretch the copy's trust). A copy
 * given without it is refused; the API's own key URL answering in that form is a copy taken now.
 */
function keysOf(data: z.infer<typeof publishedKeys>, url: string, own: boolean, copiedAt: string | undefined, now: Date): PublishedKey[] {
  if (data.keys) return data.keys;
  if (!own && copiedAt === undefined) {
    throw new FetchFailed(`the public keys: ${url} is a single-key copy (one key, no key list), which vouches for its key only up to when it was copied: say when with --key-copied-at <ISO time>, or check with the API's key list (leave out --key-url)`);
  }
  const at = own ? now : new Date(Math.min(Date.parse(copiedAt!), now.getTime()));
  return [singleKeyCopy(data, at, KEY_PUBLICATION_SECONDS)];
}

async function getJson<T>(url: string, schema: z.ZodMiniType<T>, what: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw new FetchFailed(`${what}: ${url} does not answer (${(err as Error).message})`);
  }
  const text = await res.text();
  if (res.status !== 200) {
    const message = (() => {
      try {
        return (JSON.parse(text) as { message?: string }).message ?? text.slice(0, 200);
      } catch {
        return text.slice(0, 200);
      }
    })();
    throw new FetchFailed(`${what}: ${url} answered ${res.status}: ${message}`);
  }
  const parsed = schema.safeParse((() => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  })());
  if (!parsed.success) throw new FetchFailed(`${what}: ${url} answered something that is not one: ${text.slice(0, 200)}`);
  return parsed.data;
}

/** Fetches what the check needs and runs it: the exit code (0 checked, 1 not) and the report. */
export async function verifyReceipt(command: ReceiptCommand, now: Date = new Date()): Promise<{ code: 0 | 1; output: string }> {
  const { api, siteId } = siteOfCheckpointUrl(command.checkpointUrl);
  if (command.keyUrl !== undefined) assertKeyUrl(command.keyUrl);
  const given = readReceiptArgument(command.receipt);
  const header = `receipt ${given.receipt}, site ${siteId} of ${api}`;
  try {
    const proof =
      given.proof ?? (await getJson(`${api}/api/site/${siteId}/vote-receipt/${given.receipt}`, inclusionProof, 'the receipt proof'));
    const ownKeyUrl = `${api}/api/vote-record/key`;
    const keyUrl = command.keyUrl ?? ownKeyUrl;
    const [latest, key] = await Promise.all([getJson(command.checkpointUrl, checkpoint, 'the latest checkpoint'), getJson(keyUrl, publishedKeys, 'the public keys')]);
    const keys = keysOf(key, keyUrl, keyUrl === ownKeyUrl, command.keyCopiedAt === undefined ? undefined : instantOf(command.keyCopiedAt), now);
    const steps =
      latest.treeSize > proof.checkpoint.treeSize
        ? (await getJson(`${api}/api/site/${siteId}/vote-record/consistency?from=${proof.checkpoint.treeSize}&to=${latest.treeSize}`, consistency, 'the consistency proof')).proof
        : null;
    const castAt = latestOf(given.castAt, command.votedAt === undefined ? undefined : instantOf(command.votedAt));
    const result = checkReceipt({ siteId, receipt: given.receipt, inclusion: proof as PublishedReceiptProof, latest: latest as PublishedCheckpoint, consistency: steps, keys, now, castAt });
    const verdict = result.ok ? 'OK: the receipt is in the signed vote record, and the record has only grown since' : 'NOT VERIFIED';
    return { code: result.ok ? 0 : 1, output: [header, ...result.lines, verdict].join('\n') };
  } catch (err) {
    if (err instanceof FetchFailed) return { code: 1, output: [header, `FAIL  ${err.message}`, 'NOT VERIFIED'].join('\n') };
    throw err;
  }
}
