/**
 * A voter's receipt check (lib/vote-record/receipt-check.ts) over a log built in memory: it passes for
 * an honest log, and each way a server could mislead a voter fails it.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, rawPublicKey, signCheckpoint } from '#lib/vote-record/checkpoint';
import { consistencyProof, inclusionProof, leafHash, nodeHash, treeRoot, type Hash, type NodeSource } from '#lib/vote-record/merkle';
import { checkReceipt, type PublishedCheckpoint, type ReceiptCheckInput } from '#lib/vote-record/receipt-check';

const SITE = 7;
const { privateKey } = generateKeyPairSync('ed25519');
const key = { keyId: keyIdOf(privateKey), publicKey: rawPublicKey(privateKey).toString('base64') };
const receipts = Array.from({ length: 11 }, () => randomBytes(32).toString('hex'));
const now = new Date('2030-01-01T12:00:00Z');

function source(leaves: readonly string[]): NodeSource {
  const node = (level: number, index: number): Hash =>
    level === 0 ? leafHash(Buffer.from(leaves[index]!, 'hex')) : nodeHash(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
  return node;
}

function signed(id: number, size: number, leaves: readonly string[] = receipts, cut = '2030-01-01T11:00:00.000Z'): PublishedCheckpoint {
  const { siteId: _site, ...rest } = signCheckpoint({ siteId: SITE, id, treeSize: size, root: treeRoot(source(leaves), size).toString('hex'), cut, ballots: size }, privateKey);
  return rest;
}

/** Receipt 2 in checkpoint 1 (5 entries); the latest is checkpoint 2 (11 entries). */
function honest(): ReceiptCheckInput {
  const at = signed(1, 5);
  const latest = signed(2, 11);
  const hex = (list: Hash[]) => list.map((h) => h.toString('hex'));
  return {
    siteId: SITE,
    receipt: receipts[2]!,
    inclusion: { receipt: receipts[2]!, checkpoint: at, leafIndex: 2, proof: hex(inclusionProof(source(receipts), 2, 5)) },
    latest,
    consistency: hex(consistencyProof(source(receipts), 5, 11)),
    key,
    now,
  };
}

const failures = (input: ReceiptCheckInput) => checkReceipt(input).lines.filter((line) => line.startsWith('FAIL'));

describe("a voter's receipt check", () => {
  it('holds for an honest log, and for a latest checkpoint of the same tree', () => {
    expect(checkReceipt(honest())).toMatchObject({ ok: true });
    const same = honest();
    expect(checkReceipt({ ...same, latest: signed(2, 5), consistency: null }).ok).toBe(true);
  });

  it('fails for a receipt the proof is not about, or a proof for another leaf', () => {
    expect(failures({ ...honest(), receipt: receipts[3]! }).join('\n')).toMatch(/the proof is for receipt/);
    const input = honest();
    expect(failures({ ...input, inclusion: { ...input.inclusion, leafIndex: 3 } }).join('\n')).toMatch(/not leaf 3/);
  });

  it('fails for an edited checkpoint (root, size or ballot count) or another key', () => {
    const input = honest();
    for (const edit of [{ root: 'ab'.repeat(32) }, { ballots: 4 }, { cut: '2030-01-01T10:00:00.000Z' }]) {
      expect(failures({ ...input, inclusion: { ...input.inclusion, checkpoint: { ...input.inclusion.checkpoint, ...edit } } }).join('\n')).toMatch(/not signed/);
    }
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(failures({ ...input, key: { keyId: keyIdOf(other), publicKey: rawPublicKey(other).toString('base64') } })).toHaveLength(2);
  });

  it('fails when the latest checkpoint does not extend the receipt\'s: rewritten, cut back or forked', () => {
    const rewritten = [...receipts];
    rewritten[1] = randomBytes(32).toString('hex');
    const input = honest();
    // A latest tree where an entry before the receipt was rewritten: the consistency proof cannot hold.
    const hex = (list: Hash[]) => list.map((h) => h.toString('hex'));
    expect(failures({ ...input, latest: signed(2, 11, rewritten), consistency: hex(consistencyProof(source(rewritten), 5, 11)) }).join('\n')).toMatch(/does not extend/);
    expect(failures({ ...input, latest: signed(2, 4), consistency: null }).join('\n')).toMatch(/cut back/);
    expect(failures({ ...input, latest: signed(2, 5, rewritten), consistency: null }).join('\n')).toMatch(/forked/);
    expect(failures({ ...input, consistency: null }).join('\n')).toMatch(/does not extend/);
  });

  it('flags a checkpoint dated in the future', () => {
    const input = honest();
    expect(failures({ ...input, latest: signed(2, 11, receipts, '2030-01-02T00:00:00.000Z') }).join('\n')).toMatch(/in the future/);
  });

  it('without the ballot count (counts hidden): the root is vouched for by the signed latest checkpoint alone', () => {
    const input = honest();
    const { ballots: _hidden, ...withoutCount } = input.inclusion.checkpoint;
    const hidden = { ...input, inclusion: { ...input.inclusion, checkpoint: withoutCount } };
    const check = checkReceipt(hidden);
    expect(check.ok).toBe(true);
    expect(check.lines.join('\n')).toMatch(/without its ballot count/);
    // ... and a made-up tree that holds the receipt still fails there, through the consistency proof.
    const fake = [...receipts];
    fake[0] = randomBytes(32).toString('hex');
    const hex = (list: Hash[]) => list.map((h) => h.toString('hex'));
    const madeUp = {
      ...hidden,
      inclusion: { ...hidden.inclusion, checkpoint: { ...withoutCount, root: treeRoot(source(fake), 5).toString('hex') }, proof: hex(inclusionProof(source(fake), 2, 5)) },
      consistency: hex(consistencyProof(source(fake), 5, 11)),
    };
    expect(failures(madeUp).join('\n')).toMatch(/does not extend/);
    expect(failures(madeUp)).toHaveLength(1);
  });

  it('refuses a receipt that is not 64 hex digits', () => {
    expect(checkReceipt({ ...honest(), receipt: 'xyz' })).toMatchObject({ ok: false });
  });
});
