/**
 * One entry of the vote log: a version of one ballot, never changed after it is written. Every vote
 * round (and every other write that changes a ballot: anonymization, the removal of a deleted idea's
 * votes, a moderator rejecting or reinstating a vote) appends exactly one.
 *
 * The entry is sealed with HMAC-SHA-256 under the **chain key**, a secret the table does not hold
 * (lib/vote-record/keys.ts): `mac = HMAC(chainKey, "participation-api vote entry v1", site, user,
 * version, previous mac, votes, writtenAt[, rejected][, "migrated"])`, each field length-prefixed so
 * no two entries encode alike; `rejected` is covered only when the ballot holds rejected votes and the
 * migration mark only on the entry `npm run migrate` writes, so every other entry keeps the encoding
 * it always had.
 * Each entry names the mac of the ballot's previous version (`prevMac`; 64 zeros for version 1), so a
 * ballot's versions form a chain. Someone who can write the table but not read the chain key can
 * neither forge a new version nor edit an old one without the mac failing, nor drop one without the
 * next version's `prevMac` pointing at nothing.
 *
 * The mac is also the entry's **receipt** (hex) and the leaf data of the log's Merkle tree: unguessable
 * without the key, it tells nobody else anything about the ballot (not even its owner can show how they
 * voted with it: it proves inclusion, not content), and it makes the leaf hashes that appear in other
 * voters' proofs opaque (a hash of low-entropy ballot content could be brute-forced).
 */
import { createHmac } from 'node:crypto';

export const GENESIS_MAC = '0'.repeat(64);
const DOMAIN = 'participation-api vote entry v1';
const HEX_MAC = /^[0-9a-f]{64}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface EntryVote {
  ideaId: number;
  opinion: string;
}

/** A vote the ballot holds but a moderator rejected: it counts nowhere. `by`: the moderator (null: a service token). */
interface RejectedEntryVote extends EntryVote {
  by: number | null;
}

export interface VoteEntry {
  siteId: number;
  /** The ballot's owner (kept inside the table; never shown to anyone but moderators). */
  userId: number;
  /** 1, 2, 3, ... per ballot. */
  version: number;
  /** The mac of the ballot's previous version; GENESIS_MAC for version 1. */
  prevMac: string;
  /** The ballot's votes that count after this write. */
  votes: readonly EntryVote[];
  /** The ballot's rejected votes after this write (absent or empty: none). */
  rejected?: readonly RejectedEntryVote[] | undefined;
  /** When it was written (ISO, milliseconds, UTC): the log orders entries by it. */
  writtenAt: string;
  /**
   * Written by `npm run migrate` (the first seal of a ballot from before the log), not by a write of
   * the ballot. Inside the mac, so a table writer can neither add nor drop it; absent on every other
   * entry, whose encoding it leaves unchanged.
   */
  migrated?: true | undefined;
}

export interface SealedEntry extends VoteEntry {
  mac: string;
}

export const isReceipt = (text: string): boolean => HEX_MAC.test(text);

/** The votes in one canonical order: by idea id, then opinion. */
function canonicalEntryVotes(votes: readonly EntryVote[]): [number, string][] {
  return votes.map((vote): [number, string] => [vote.ideaId, vote.opinion]).sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

function canonicalRejected(votes: readonly RejectedEntryVote[]): [number, string, number | null][] {
  return votes.map((v): [number, string, number | null] => [v.ideaId, v.opinion, v.by]).sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

function field(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

const text = (value: string): Buffer => field(Buffer.from(value, 'utf8'));

function whole(value: number, what: string): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number`);
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return field(bytes);
}

/** The bytes the mac covers. Throws on a malformed entry (a programming error, not user input). */
export function entryBytes(entry: VoteEntry): Buffer {
  if (entry.version < 1) throw new RangeError('version must be >= 1');
  if (!HEX_MAC.test(entry.prevMac)) throw new RangeError('prevMac must be a lowercase hex SHA-256 mac');
  if (!ISO.test(entry.writtenAt)) throw new RangeError('writtenAt must be an ISO instant with milliseconds, UTC');
  return Buffer.concat([
    text(DOMAIN),
    whole(entry.siteId, 'siteId'),
    whole(entry.userId, 'userId'),
    whole(entry.version, 'version'),
    field(Buffer.from(entry.prevMac, 'hex')),
    text(JSON.stringify(canonicalEntryVotes(entry.votes))),
    text(entry.writtenAt),
    ...(entry.rejected && entry.rejected.length > 0 ? [text(JSON.stringify(canonicalRejected(entry.rejected)))] : []),
    // A JSON array above never reads as this word, so no two entries encode alike.
    ...(entry.migrated === true ? [text('migrated')] : []),
  ]);
}

export const entryMac = (chainKey: Uint8Array, entry: VoteEntry): string => createHmac('sha256', chainKey).update(entryBytes(entry)).digest('hex');

export const sealEntry = (chainKey: Uint8Array, entry: VoteEntry): SealedEntry => ({ ...entry, mac: entryMac(chainKey, entry) });

/** Whether an entry's mac is the one the chain key gives it (false too for a malformed entry). */
export function macIsValid(chainKey: Uint8Array, entry: SealedEntry): boolean {
  if (!HEX_MAC.test(entry.mac)) return false;
  try {
    return entryMac(chainKey, entry) === entry.mac;
  } catch {
    return false;
  }
}

/**
 * Log order within one checkpoint's batch: by receipt. Batches follow each other by cut, so time
 * orders the log only to the checkpoint: a leaf's index says which batch holds a round and nothing
 * about when in it the round was cast (by time written, a receipt's index would pick out its round
 * among votes listed with their creation time).
 */
export const batchOrder = (a: Pick<SealedEntry, 'mac'>, b: Pick<SealedEntry, 'mac'>): number => (a.mac < b.mac ? -1 : a.mac > b.mac ? 1 : 0);
