/** The RFC 9162 tree and its proofs: published test vectors, a naive reference, and every proof up to 40 leaves. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  appendLeaves,
  consistencyProof,
  EMPTY_FRONTIER,
  frontierRoot,
  type Hash,
  inclusionProof,
  leafHash,
  nodeHash,
  type NodeSource,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from '#lib/vote-record/merkle';

/** A source over leaf data held in memory, computing each complete subtree from its two halves (each node once). */
function memorySource(leaves: readonly Buffer[]): NodeSource {
  const known = new Map<string, Hash>();
  const node = (level: number, index: number): Hash => {
    const key = `${level}/${index}`;
    let hash = known.get(key);
    if (!hash) {
      hash = level === 0 ? leafHash(leaves[index]!) : nodeHash(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
      known.set(key, hash);
    }
    return hash;
  };
  return (level, index) => {
    if ((index + 1) * 2 ** level > leaves.length) throw new RangeError('beyond the tree');
    return node(level, index);
  };
}

/** RFC 9162 MTH written out literally (the reference). */
function mth(leaves: readonly Buffer[]): Hash {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leafHash(leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`leaf ${i}`));

// The test vectors of the Certificate Transparency reference implementation (merkle tree tests):
// leaf data and the root of each prefix.
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((hex) => Buffer.from(hex, 'hex'));
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

describe('RFC 9162 Merkle tree', () => {
  it('gives the Certificate Transparency test vectors, and SHA-256 of nothing for the empty tree', () => {
    CT_ROOTS.forEach((root, i) => expect(treeRoot(memorySource(CT_LEAVES), i + 1).toString('hex')).toBe(root));
    expect(treeRoot(memorySource([]), 0).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('roots from complete subtrees and from the appended frontier equal the literal MTH, for 0 to 70 leaves', () => {
    const leaves = leavesOf(70);
    let frontier = EMPTY_FRONTIER;
    for (let n = 0; n <= 70; n += 1) {
      const want = mth(leaves.slice(0, n));
      expect(treeRoot(memorySource(leaves.slice(0, n)), n).equals(want)).toBe(true);
      expect(frontierRoot(frontier).equals(want)).toBe(true);
      if (n < 70) frontier = appendLeaves(frontier, [leafHash(leaves[n]!)]);
    }
    // Appending in uneven batches ends where one-by-one does.
    let batched = EMPTY_FRONTIER;
    for (const [from, to] of [[0, 3], [3, 4], [4, 17], [17, 64], [64, 70]] as const) batched = appendLeaves(batched, leaves.slice(from, to).map(leafHash));
    expect(batched).toEqual(frontier);
  });

  it('every inclusion proof of every tree up to 40 leaves verifies, and fails for another leaf, index or root', () => {
    const leaves = leavesOf(40);
    for (let n = 1; n <= 40; n += 1) {
      const source = memorySource(leaves.slice(0, n));
      const root = treeRoot(source, n);
      const nextRoot = n < 40 ? treeRoot(memorySource(leaves.slice(0, n + 1)), n + 1) : undefined;
      for (let i = 0; i < n; i += 1) {
        const proof = inclusionProof(source, i, n);
        const leaf = leafHash(leaves[i]!);
        expect(verifyInclusion(leaf, i, n, proof, root)).toBe(true);
        expect(verifyInclusion(leafHash(Buffer.from('other')), i, n, proof, root)).toBe(false);
        if (n > 1) expect(verifyInclusion(leaf, (i + 1) % n, n, proof, root)).toBe(false);
        // (A proof may fit another size of the same shape; the size is bound by the signed root.)
        if (nextRoot) expect(verifyInclusion(leaf, i, n + 1, proof, nextRoot)).toBe(false);
        expect(verifyInclusion(leaf, i, n, proof, nodeHash(root, root))).toBe(false);
        if (proof.length > 0) expect(verifyInclusion(leaf, i, n, proof.slice(1), root)).toBe(false);
      }
    }
  });

  it('every consistency proof between trees up to 40 leaves verifies, and fails for a changed old leaf or a wrong root', () => {
    const leaves = leavesOf(40);
    const source = memorySource(leaves);
    // The old tree of m leaves with its last leaf changed: a history rewrite.
    const rewrittenRoots = leaves.map((_, i) => mth([...leaves.slice(0, i), Buffer.from('rewritten')]));
    for (let n = 1; n <= 40; n += 1) {
      const rootN = treeRoot(source, n);
      for (let m = 1; m <= n; m += 1) {
        const rootM = treeRoot(source, m);
        const proof = consistencyProof(source, m, n);
        expect(verifyConsistency(m, n, rootM, rootN, proof)).toBe(true);
        expect(verifyConsistency(m, n, rewrittenRoots[m - 1]!, rootN, proof)).toBe(false);
        if (m < n) expect(verifyConsistency(m, n, rootM, nodeHash(rootN, rootN), proof)).toBe(false);
      }
    }
  });

  it('a proof with a hash too many, or for a leaf or size that cannot be, does not verify', () => {
    const leaves = leavesOf(6);
    const source = memorySource(leaves);
    const root = treeRoot(source, 6);
    const proof = inclusionProof(source, 2, 6);
    const leaf = leafHash(leaves[2]!);
    expect(verifyInclusion(leaf, 2, 6, [...proof, root], root)).toBe(false);
    expect(verifyInclusion(leaf, -1, 6, proof, root)).toBe(false);
    expect(verifyInclusion(leaf, 6, 6, proof, root)).toBe(false);
    expect(verifyInclusion(leaf, 2, 6.5, proof, root)).toBe(false);
    expect(verifyInclusion(leaf, 0, 1, [], leaf)).toBe(true);
    const consistency = consistencyProof(source, 3, 6);
    const root3 = treeRoot(source, 3);
    expect(verifyConsistency(3, 6, root3, root, consistency)).toBe(true);
    expect(verifyConsistency(3, 6, root3, root, [...consistency, root])).toBe(false);
    expect(verifyConsistency(3, 6, root3, root, [])).toBe(false);
    expect(verifyConsistency(6, 6, root, root, [])).toBe(true);
    expect(verifyConsistency(6, 6, root, root, [root])).toBe(false);
    expect(verifyConsistency(6, 6, root3, root, [])).toBe(false);
    expect(verifyConsistency(3, 6.5, root3, root, consistency)).toBe(false);
  });

  it('refuses proofs that do not exist', () => {
    const source = memorySource(leavesOf(4));
    expect(() => inclusionProof(source, 4, 4)).toThrow('Leaf 4 is not in a tree of 4');
    expect(() => inclusionProof(source, -1, 4)).toThrow(RangeError);
    expect(() => inclusionProof(source, 1.5, 4)).toThrow(RangeError);
    expect(() => consistencyProof(source, 1.5, 4)).toThrow('No consistency proof from 1.5 to 4');
    expect(() => consistencyProof(source, 2, 3.5)).toThrow(RangeError);
    expect(() => consistencyProof(source, 0, 4)).toThrow(RangeError);
    expect(() => consistencyProof(source, 5, 4)).toThrow(RangeError);
    expect(verifyConsistency(0, 4, EMPTY_FRONTIER.hashes[0] ?? Buffer.alloc(32), Buffer.alloc(32), [])).toBe(false);
  });
});
