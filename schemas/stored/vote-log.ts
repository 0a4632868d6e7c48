/** The vote log's items (lib/store/vote-log.ts, docs/results.md "The vote record"). */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array);

/** One version of one ballot, never changed once written. */
export const storedLogEntry = keepingUnnamed(
  z.object({
    siteId: storedInt,
    userId: storedInt,
    version: storedInt,
    prevMac: hex64,
    /** [ideaId, opinion] pairs: the votes of the ballot that count after the write. */
    votes: z.array(z.tuple([storedInt, z.string()])),
    /** [ideaId, opinion, moderator's user id or null] of the votes the ballot holds but a moderator rejected (absent: none). */
    rejected: z.optional(z.array(z.tuple([storedInt, z.string(), z.nullable(storedInt)]))),
    writtenAt: storedInstant,
    /** Written by `npm run migrate` (absent: by a write of the ballot); inside the mac. */
    migrated: z.optional(z.literal(true)),
    mac: hex64,
  }),
);
export type StoredLogEntry = z.output<typeof storedLogEntry>;

/** Where the log stands: written only by the vote-checkpoints job. */
export const storedLogHead = keepingUnnamed(
  z.object({
    siteId: storedInt,
    size: storedInt,
    /** The tree's right edge (merkle.ts Frontier), hex. */
    frontier: z.array(hex64),
    /** The latest checkpoint's number and cut ('' before the first). */
    checkpointId: storedInt,
    cut: z.string(),
    /** Ballots the log holds. */
    ballots: storedInt,
    /** The latest checkpoint says the log holds every ballot of the site (carried to every later one). */
    complete: z.optional(z.boolean()),
    /** Until then: the ballot key the search for ballots without a seal goes on from ('' or absent: the first). */
    sealScan: z.optional(z.string()),
    leaseOwner: z.optional(z.string()),
    leaseUntil: z.optional(storedInstant),
    /** Receipts of checkpoint `checkpointId` still to index (a run stopped after signing): from, to. */
    indexing: z.optional(z.tuple([storedInt, storedInt])),
  }),
);
export type StoredLogHead = z.output<typeof storedLogHead>;

export const storedLogTile = keepingUnnamed(z.object({ data: bytes }));

/** Where a receipt's entry is in the log, and the first checkpoint that covers it. */
export const storedReceiptIndex = keepingUnnamed(z.object({ leafIndex: storedInt, checkpointId: storedInt }));
export type StoredReceiptIndex = z.output<typeof storedReceiptIndex>;

/** A signed checkpoint; exactly these fields (it is answered as read). */
export const storedSignedCheckpoint = z.object({
  siteId: storedInt,
  id: storedInt,
  treeSize: storedInt,
  root: hex64,
  cut: storedInstant,
  ballots: storedInt,
  /** Signed with a `complete` line: the log holds every ballot of the site (absent: not said). */
  complete: z.optional(z.boolean()),
  signature: z.string(),
  keyId: z.string(),
  /** When it was signed (the job's clock). */
  createdAt: storedInstant,
});
export type StoredSignedCheckpoint = z.output<typeof storedSignedCheckpoint>;
