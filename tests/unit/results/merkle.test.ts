/**
 * The vote record: ballot-state hash chains and the RFC 6962 Merkle checkpoint. The expected tree
 * shapes are built here by hand with node:crypto, independently of lib/crypto/merkle.ts.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BallotLeaf,
  type BallotState,
  GENESIS,
  ballotStateHash,
  inclusionProof,
  merkleRoot,
  verifyChain,
  verifyInclusion,
} from '#lib/crypto/merkle';

const sha = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
const prefixed = (text: string): Buffer => {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const leafOf = (leaf: BallotLeaf): Buffer => sha(Buffer.of(0), prefixed(leaf.key), Buffer.from(leaf.hash, 'hex'));
const node = (left: Buffer, right: Buffer): Buffer => sha(Buffer.of(1), left, right);
const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');
const leaves = (n: number): BallotLeaf[] => Array.from({ length: n }, (_, i) => ({ key: `user-${String(i).padStart(3, '0')}`, hash: hashOf(`ballot ${i}`) }));

describe('Merkle checkpoint (RFC 6962 tree)', () => {
  it('the empty tree is SHA-256 of nothing; one ballot is its leaf hash', () => {
    expect(merkleRoot([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const [one] = leaves(1);
    expect(merkleRoot([one!])).toBe(leafOf(one!).toString('hex'));
  });

  it('splits at the largest power of two below n and never duplicates an odd node', () => {
    const [a, b, c, d, e] = leaves(5).map(leafOf);
    const three = leaves(3);
    expect(merkleRoot(three)).toBe(node(node(a!, b!), c!).toString('hex'));
    expect(merkleRoot(leaves(5))).toBe(node(node(node(a!, b!), node(c!, d!)), e!).toString('hex'));
    // The duplication rule of Bitcoin's tree would give [a, b, c] and [a, b, c, c] one root.
    expect(merkleRoot(three)).not.toBe(node(node(a!, b!), node(c!, c!)).toString('hex'));
  });

  it('depends on the set of ballots only, not on their order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }).chain((n) => fc.shuffledSubarray(leaves(n), { minLength: n })), (shuffled) => {
        expect(merkleRoot(shuffled)).toBe(merkleRoot(leaves(shuffled.length)));
      }),
      { seed: 20261123, numRuns: 50 },
    );
  });

  it('changes when any ballot hash or key changes, or a ballot is added or removed', () => {
    const all = leaves(9);
    const root = merkleRoot(all);
    all.forEach((_leaf, i) => {
      const changedHash = all.map((other, j) => (j === i ? { ...other, hash: hashOf(`tampered ${i}`) } : other));
      expect(merkleRoot(changedHash)).not.toBe(root);
      const changedKey = all.map((other, j) => (j === i ? { ...other, key: `${other.key}x` } : other));
      expect(merkleRoot(changedKey)).not.toBe(root);
      expect(merkleRoot(all.filter((_, j) => j !== i))).not.toBe(root);
    });
    expect(merkleRoot([...all, { key: 'user-999', hash: hashOf('new') }])).not.toBe(root);
    // Swapping two ballots' hashes is a change too: the key is part of the leaf.
    const swapped = all.map((leaf, j) => (j === 0 ? { ...leaf, hash: all[1]!.hash } : j === 1 ? { ...leaf, hash: all[0]!.hash } : leaf));
    expect(merkleRoot(swapped)).not.toBe(root);
  });

  it('rejects a ballot key twice and a malformed hash', () => {
    const [a] = leaves(1);
    expect(() => merkleRoot([a!, { ...a! }])).toThrow(RangeError);
    expect(() => merkleRoot([{ key: 'k', hash: 'ABC' }])).toThrow(RangeError);
  });

  it('inclusion proofs verify for every ballot of every tree size up to 17, and fail for anything else', () => {
    for (let n = 1; n <= 17; n += 1) {
      const all = leaves(n);
      const root = merkleRoot(all);
      for (const leaf of all) {
        const proof = inclusionProof([...all].reverse(), leaf.key);
        expect(verifyInclusion(leaf, proof, root), `n=${n} ${leaf.key}`).toBe(true);
        expect(verifyInclusion({ ...leaf, hash: hashOf('other') }, proof, root)).toBe(false);
        expect(verifyInclusion(leaf, { ...proof, index: (proof.index + 1) % n }, root)).toBe(n === 1);
        if (proof.path.length > 0) expect(verifyInclusion(leaf, { ...proof, path: proof.path.slice(1) }, root)).toBe(false);
        expect(verifyInclusion(leaf, proof, merkleRoot([...all, { key: 'zz', hash: hashOf('x') }]))).toBe(false);
      }
    }
    expect(() => inclusionProof(leaves(3), 'nobody')).toThrow(RangeError);
  });
});

describe('ballot-state hash chain', () => {
  const chain = (key: string, rounds: BallotState['votes'][]): (BallotState & { hash: string })[] => {
    const states: (BallotState & { hash: string })[] = [];
    let previousHash = GENESIS;
    rounds.forEach((votes, i) => {
      const state = { key, version: i + 1, previousHash, votes };
      const hash = ballotStateHash(state);
      states.push({ ...state, hash });
      previousHash = hash;
    });
    return states;
  };
  const rounds = [[{ ideaId: 3, opinion: 'yes' }], [{ ideaId: 3, opinion: 'yes' }, { ideaId: 7, opinion: 'yes' }], [{ ideaId: 7, opinion: 'no' }]];

  it('is deterministic and independent of the order votes are listed in', () => {
    const state = { key: 'user-1', version: 2, previousHash: GENESIS, votes: rounds[1]! };
    expect(ballotStateHash(state)).toBe(ballotStateHash({ ...state, votes: [...rounds[1]!].reverse() }));
    expect(ballotStateHash(state)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('binds the key, version, previous hash and every vote', () => {
    const state = { key: 'user-1', version: 2, previousHash: GENESIS, votes: rounds[1]! };
    const hash = ballotStateHash(state);
    expect(ballotStateHash({ ...state, key: 'user-2' })).not.toBe(hash);
    expect(ballotStateHash({ ...state, version: 3 })).not.toBe(hash);
    expect(ballotStateHash({ ...state, previousHash: hashOf('x') })).not.toBe(hash);
    expect(ballotStateHash({ ...state, votes: [{ ideaId: 3, opinion: 'yes' }, { ideaId: 7, opinion: 'no' }] })).not.toBe(hash);
    expect(ballotStateHash({ ...state, votes: [{ ideaId: 3, opinion: 'yes' }] })).not.toBe(hash);
    expect(() => ballotStateHash({ ...state, version: 0 })).toThrow(RangeError);
  });

  it('an intact chain verifies', () => {
    expect(verifyChain(chain('user-1', rounds))).toEqual([]);
    expect(verifyChain([])).toEqual([]);
  });

  it('reports a vote rewritten in an earlier state, even with that state re-hashed', () => {
    const states = chain('user-1', rounds);
    const edited = states.map((s, i) => (i === 0 ? { ...s, votes: [{ ideaId: 4, opinion: 'yes' }] } : s));
    expect(verifyChain(edited)).toEqual([{ version: 1, problem: 'hash does not match the state' }]);
    const rehashed = edited.map((s, i) => (i === 0 ? { ...s, hash: ballotStateHash(s) } : s));
    expect(verifyChain(rehashed)).toEqual([{ version: 2, problem: 'previous hash does not match' }]);
  });

  it('reports a removed, reordered or foreign state', () => {
    const states = chain('user-1', rounds);
    expect(verifyChain([states[0]!, states[2]!]).map((p) => p.problem)).toContain('expected version 2');
    expect(verifyChain([states[1]!, states[0]!]).length).toBeGreaterThan(0);
    const other = chain('user-2', rounds);
    expect(verifyChain([states[0]!, other[1]!]).length).toBeGreaterThan(0);
  });
});
