/**
 * Results, exports and the vote record (CONTRACT "Decided details, results and exports").
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, pathId } from '#schemas/common';

const cursor = z.optional(z.string().check(z.minLength(1), z.maxLength(2048)));

export const exportVotesQuery = z.object({
  format: z.enum(['pabulib', 'csv'], { error: 'must be pabulib or csv' }),
  cursor,
});

export const exportIdeasQuery = z.object({
  format: z.enum(['csv'], { error: 'must be csv' }),
  cursor,
});

export const listCheckpointsQuery = z.object({ ...pageQuery });
export type ListCheckpointsQuery = z.infer<typeof listCheckpointsQuery>;


const rankedIdea = z.object({ id: z.int(), title: z.string(), yes: z.int(), no: z.int(), rank: z.int() });
const winnersOf = z.object({ ideaIds: z.array(z.int()), spent: z.number() });
const winners = z.object({ greedy: winnersOf, equalShares: winnersOf });

export const resultsRecord = z.object({
  voteType: z.string(),
  computedAt: z.string(),
  ballots: z.int(),
  ideas: z.array(rankedIdea),
  winners: z.optional(winners),
  themes: z.optional(z.array(z.object({ value: z.string(), ideas: z.array(rankedIdea), winners: z.optional(winners) }))),
  /** The signed checkpoint whose log holds exactly the ballots counted; null while ballots changed since the latest. */
  checkpoint: z.optional(z.nullable(z.object({ id: z.int(), treeSize: z.int(), root: z.string() }))),
});

/** A signed checkpoint of a site's vote log (docs/results.md "The vote record"). */
export const checkpointRecord = z.object({
  id: z.int(),
  siteId: z.int(),
  /** Entries in the log's tree. */
  treeSize: z.int(),
  /** The RFC 9162 Merkle tree root, lowercase hex. */
  root: z.string(),
  /** Every entry written up to this instant is in the tree. */
  cut: z.string(),
  ballots: z.int(),
  /** Ed25519 over the checkpoint text, standard base64; `keyId` names the key (`GET /api/vote-record/key`). */
  signature: z.string(),
  keyId: z.string(),
  createdAt: z.string(),
});
export type CheckpointRecord = z.infer<typeof checkpointRecord>;

const hexHash = z.string().check(z.regex(/^[0-9a-f]{64}$/));

/** A receipt in a path: 64 hex digits (either case). */
export const receiptParams = z.object({
  siteId: pathId,
  receipt: z.pipe(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits')), z.transform((value) => value.toLowerCase())),
});

export const publicCheckpoint = z.object({ id: z.int(), treeSize: z.int(), root: hexHash, cut: z.string(), ballots: z.int(), signature: z.string(), keyId: z.string() });

/** A receipt's checkpoint: without `ballots` for those who may not see the site's vote counts. */
export const voteReceiptRecord = z.object({ receipt: hexHash, checkpoint: z.extend(publicCheckpoint, { ballots: z.optional(z.int()) }), leafIndex: z.int(), proof: z.array(hexHash) });

export const voteRecordKeyRecord = z.object({
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  /** The raw 32-byte public key, standard base64. */
  publicKey: z.string(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() }),
});

/** Tree sizes in a query: positive integers in plain decimal digits, as path ids. */
export const consistencyQuery = z.object({ from: pathId, to: pathId });
export const consistencyRecord = z.object({ from: z.int(), to: z.int(), proof: z.array(hexHash) });

const records = z.array(z.record(z.string(), z.unknown()));
export const userExportResponse = z.object({
  users: records,
  ideas: records,
  articles: records,
  arguments: records,
  votes: records,
  newsletterSignups: records,
});
export type UserExportResponse = z.infer<typeof userExportResponse>;
