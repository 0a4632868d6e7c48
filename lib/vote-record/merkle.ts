/**
 * The Merkle tree of RFC 9162 (Certificate Transparency 2.0, section 2.1) over the vote log, with its
 * two proofs: inclusion (an entry is in a signed tree head) and consistency (a later tree extends an
 * earlier one, nothing rewritten, removed or reordered). Pure; the leaves are entries' receipts.
 *
 *   leaf hash   SHA-256(0x00 || leaf data)
 *   node hash   SHA-256(0x01 || left || right)
 *   MTH(D[n])   for n > 1: k = the largest power of two below n, node hash of MTH(D[0:k]) and MTH(D[k:n]);
 *               MTH of one leaf is its leaf hash, of no leaf SHA-256 of nothing.
 *
 * The 0x00 / 0x01 prefixes keep a leaf from passing as an inner node; an odd node is never duplicated
 * (the split rule), so `[a, b, c]` and `[a, b, c, c]` have different roots.
 *
 * Large trees are not held in memory: the proofs read hashes of **complete subtrees** (level ℓ, index i:
 * the 2^ℓ leaves from i·2^ℓ) through a `NodeSource`, which lib/vote-record/tiles.ts serves from stored
 * tiles. `neededNodes` runs a proof against a recording source to learn which nodes to fetch first.
 */
import { createHash } from 'node:crypto';

export type Hash = Buffer;

const sha256 = (...parts: Uint8Array[]): Hash => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const LEAF = Uint8Array.of(0);
const NODE = Uint8Array.of(1);

export const leafHash = (data: Uint8Array): Hash => sha256(LEAF, data);
export const nodeHash = (left: Uint8Array, right: Uint8Array): Hash => sha256(NODE, left, right);
const EMPTY_ROOT: Hash = sha256();

/** Largest power of two strictly below n (n >= 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The hash of the complete subtree at `level` (2^level leaves) and `index`. */
export type NodeSource = (level: number, index: number) => Hash;

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

/** MTH of leaves [lo, hi), from complete subtrees (lo aligned to a power of two as RFC 9162 splits it). */
function rangeHash(source: NodeSource, lo: number, hi: number): Hash {
  const size = hi - lo;
  if (size === 0) return EMPTY_ROOT;
  if (isPowerOfTwo(size) && lo % size === 0) return source(Math.log2(size), lo / size);
  const k = splitPoint(size);
  return nodeHash(rangeHash(source, lo, lo + k), rangeHash(source, lo + k, hi));
}

export const treeRoot = (source: NodeSource, size: number): Hash => rangeHash(source, 0, size);

/** PATH(m, D[lo:hi]) of RFC 9162 2.1.3.1: sibling hashes from the leaf up. */
function path(source: NodeSource, m: number, lo: number, hi: number): Hash[] {
  const n = hi - lo;
  if (n <= 1) return [];
  const k = splitPoint(n);
  return m < k ? [...path(source, m, lo, lo + k), rangeHash(source, lo + k, hi)] : [...path(source, m - k, lo + k, hi), rangeHash(source, lo, lo + k)];
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves. */
export function inclusionProof(source: NodeSource, index: number, size: number): Hash[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`Leaf ${index} is not in a tree of ${size}`);
  return path(source, index, 0, size);
}

/** SUBPROOF(m, D[lo:hi], b) of RFC 9162 2.1.4.1. */
function subproof(source: NodeSource, m: number, lo: number, hi: number, whole: boolean): Hash[] {
  const n = hi - lo;
  if (m === n) return whole ? [] : [rangeHash(source, lo, hi)];
  const k = splitPoint(n);
  return m <= k
    ? [...subproof(source, m, lo, lo + k, whole), rangeHash(source, lo + k, hi)]
    : [...subproof(source, m - k, lo + k, hi, false), rangeHash(source, lo, lo + k)];
}

/** The consistency proof from the tree of `from` leaves to the tree of `to` leaves (0 < from <= to). */
export function consistencyProof(source: NodeSource, from: number, to: number): Hash[] {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || from > to) throw new RangeError(`No consistency proof from ${from} to ${to}`);
  return subproof(source, from, 0, to, true);
}

/** Verifies an inclusion proof (RFC 9162 2.1.3.2). */
export function verifyInclusion(leaf: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** Verifies a consistency proof between two tree heads (RFC 9162 2.1.4.2). */
export function verifyConsistency(from: number, to: number, fromRoot: Hash, toRoot: Hash, proof: readonly Hash[]): boolean {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || from > to) return false;
  if (from === to) return proof.length === 0 && fromRoot.equals(toRoot);
  const path = isPowerOfTwo(from) ? [fromRoot, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(fromRoot) && sr.equals(toRoot);
}

/** The nodes a proof or root reads, to fetch them before computing it (`compute` is run on a recorder). */
export function neededNodes(compute: (source: NodeSource) => unknown): { level: number; index: number }[] {
  const seen = new Map<string, { level: number; index: number }>();
  compute((level, index) => {
    seen.set(`${level}/${index}`, { level, index });
    return EMPTY_ROOT;
  });
  return [...seen.values()];
}

/**
 * The right edge of a tree (a "compact range" from leaf 0): the roots of its perfect subtrees, largest
 * first, one per 1-bit of the size. Enough to append leaves and compute the new root without the old
 * leaves: what the log's sequencer keeps between runs (at most 53 hashes).
 */
export interface Frontier {
  size: number;
  /** Subtree roots, left to right (largest first). */
  hashes: Hash[];
}

export const EMPTY_FRONTIER: Frontier = { size: 0, hashes: [] };

/** The frontier after appending leaf hashes; also yields each completed subtree (level, index, hash). */
export function appendLeaves(frontier: Frontier, leaves: readonly Hash[], onNode?: (level: number, index: number, hash: Hash) => void): Frontier {
  const hashes = [...frontier.hashes];
  let size = frontier.size;
  for (const leaf of leaves) {
    let hash = leaf;
    let level = 0;
    let index = size;
    onNode?.(0, index, hash);
    // Merge while the new subtree completes a larger one (a trailing 1-bit of the old size).
    while ((index & 1) === 1) {
      hash = nodeHash(hashes.pop()!, hash);
      level += 1;
      index = Math.floor(index / 2);
      onNode?.(level, index, hash);
    }
    hashes.push(hash);
    size += 1;
  }
  return { size, hashes };
}

/** The MTH of the tree a frontier describes. */
export function frontierRoot(frontier: Frontier): Hash {
  if (frontier.size === 0) return EMPTY_ROOT;
  let root = frontier.hashes[frontier.hashes.length - 1]!;
  for (let i = frontier.hashes.length - 2; i >= 0; i -= 1) root = nodeHash(frontier.hashes[i]!, root);
  return root;
}
