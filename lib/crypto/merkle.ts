/**
 * The verifiable vote record, as pure functions:
 * - a ballot-state hash chain: every committed state of a ballot hashes the previous state's hash, its
 *   version and the canonical JSON of its votes, so rewriting any earlier state breaks every later link;
 * - a Merkle root over all ballots' latest hashes (a site checkpoint), so one published 32-byte value
 *   pins every ballot, and a single ballot can be shown to be included with a short proof.
 *
 * The tree is RFC 6962's (Certificate Transparency, section 2.1): leaf hash SHA-256(0x00 || leaf), inner
 * hash SHA-256(0x01 || left || right), which separates the two domains so a leaf can never pass as an
 * inner node (the second-preimage attack on naive trees). An odd node is not duplicated: a tree of n
 * leaves is split at the largest power of two below n, so the right subtree is simply smaller (the
 * duplication rule of Bitcoin's tree makes [a, b, c] and [a, b, c, c] share a root, CVE-2012-2459). The
 * empty tree's root is SHA-256 of nothing. Leaves are sorted by ballot key (code-unit order, which
 * does not depend on a locale), so the root depends only on the set of ballots, not on the order a Query
 * returned them in.
 */
import { createHash } from 'node:crypto';

export interface BallotLeaf {
  /** A stable, unique key of the ballot (e.g. the user's id within the site). */
  key: string;
  /** The hex SHA-256 of the ballot's latest state (`ballotStateHash`). */
  hash: string;
}

export interface BallotState {
  /** The same key the ballot has in the checkpoint: a state cannot be moved to another ballot. */
  key: string;
  /** 1 for the first committed state, +1 for every later round. */
  version: number;
  /** The previous state's hash; `GENESIS` for version 1. */
  previousHash: string;
  votes: readonly { ideaId: number; opinion: string }[];
}

/** The `previousHash` of a ballot's first state. */
export const GENESIS = '0'.repeat(64);

const HEX_HASH = /^[0-9a-f]{64}$/;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** Length-prefixed UTF-8, so that no two different keys can produce the same leaf bytes. */
function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function hashBytes(hex: string): Buffer {
  if (!HEX_HASH.test(hex)) throw new RangeError(`Not a lowercase hex SHA-256: ${hex}`);
  return Buffer.from(hex, 'hex');
}

/** The votes in one canonical form: by idea id, then opinion; only the fields a tally counts. */
export function canonicalVotes(votes: BallotState['votes']): string {
  const pairs = votes.map((vote) => [vote.ideaId, vote.opinion] as const);
  pairs.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return JSON.stringify(pairs);
}

/** The hash of one ballot state: SHA-256 over a domain tag, the key, version, previous hash and votes. */
export function ballotStateHash(state: BallotState): string {
  if (!Number.isSafeInteger(state.version) || state.version < 1) throw new RangeError('version must be a whole number >= 1');
  const version = Buffer.alloc(8);
  version.writeBigUInt64BE(BigInt(state.version));
  return sha256(
    lengthPrefixed('ballot-state/v1'),
    lengthPrefixed(state.key),
    version,
    hashBytes(state.previousHash),
    lengthPrefixed(canonicalVotes(state.votes)),
  ).toString('hex');
}

export interface ChainProblem {
  version: number;
  problem: string;
}

/**
 * Checks a ballot's states, oldest first, with the hash each claims: versions 1, 2, 3, ..., each linked to
 * the one before, each hash recomputed. Returns what is wrong (empty when the chain is intact).
 */
export function verifyChain(states: readonly (BallotState & { hash: string })[]): ChainProblem[] {
  const problems: ChainProblem[] = [];
  let previous = GENESIS;
  states.forEach((state, index) => {
    if (state.version !== index + 1) problems.push({ version: state.version, problem: `expected version ${index + 1}` });
    if (state.previousHash !== previous) problems.push({ version: state.version, problem: 'previous hash does not match' });
    if (ballotStateHash(state) !== state.hash) problems.push({ version: state.version, problem: 'hash does not match the state' });
    previous = state.hash;
  });
  return problems;
}

function leafHash(leaf: BallotLeaf): Buffer {
  return sha256(Uint8Array.of(0), lengthPrefixed(leaf.key), hashBytes(leaf.hash));
}

const innerHash = (left: Buffer, right: Buffer): Buffer => sha256(Uint8Array.of(1), left, right);

/** Largest power of two strictly below `n` (n >= 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 6962 MTH over leaf hashes. */
function treeHash(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return innerHash(treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

/** The leaves sorted by key; a key twice is an error (one ballot per key). */
export function sortLeaves(leaves: readonly BallotLeaf[]): BallotLeaf[] {
  const sorted = [...leaves].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]!.key === sorted[i - 1]!.key) throw new RangeError(`Ballot key ${sorted[i]!.key} appears twice`);
  }
  return sorted;
}

/** The checkpoint root (hex) over the ballots, in any order. */
export function merkleRoot(leaves: readonly BallotLeaf[]): string {
  return treeHash(sortLeaves(leaves).map(leafHash)).toString('hex');
}

/** RFC 6962 PATH(m, D): the sibling hashes from the leaf up, to prove that one ballot is in the root. */
function auditPath(index: number, leaves: readonly Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return index < k
    ? [...auditPath(index, leaves.slice(0, k)), treeHash(leaves.slice(k))]
    : [...auditPath(index - k, leaves.slice(k)), treeHash(leaves.slice(0, k))];
}

export interface InclusionProof {
  /** Position of the ballot among the sorted leaves. */
  index: number;
  size: number;
  /** Sibling hashes (hex), leaf level first. */
  path: string[];
}

/** A proof that the ballot with `key` is in `merkleRoot(leaves)`. */
export function inclusionProof(leaves: readonly BallotLeaf[], key: string): InclusionProof {
  const sorted = sortLeaves(leaves);
  const index = sorted.findIndex((leaf) => leaf.key === key);
  if (index < 0) throw new RangeError(`No ballot with key ${key}`);
  return { index, size: sorted.length, path: auditPath(index, sorted.map(leafHash)).map((hash) => hash.toString('hex')) };
}

/** Checks an inclusion proof (RFC 9162 section 2.1.3.2, the same tree) against a root. */
export function verifyInclusion(leaf: BallotLeaf, proof: InclusionProof, root: string): boolean {
  if (proof.index < 0 || proof.index >= proof.size) return false;
  let fn = proof.index;
  let sn = proof.size - 1;
  let hash = leafHash(leaf);
  for (const siblingHex of proof.path) {
    if (!HEX_HASH.test(siblingHex) || sn === 0) return false;
    const sibling = Buffer.from(siblingHex, 'hex');
    if (fn % 2 === 1 || fn === sn) {
      hash = innerHash(sibling, hash);
      // The last node of a level with no sibling there: climb until it is a right child.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      hash = innerHash(hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && hash.toString('hex') === root;
}
