/**
 * A voter's receipt check (lib/vote-record/receipt-check.ts) over a log built in memory: it passes for
 * an honest log, and each way a server could mislead a voter fails it.
 */
import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, rawPublicKey, signCheckpoint } from '#lib/vote-record/checkpoint';
import { consistencyProof, inclusionProof, leafHash, nodeHash, treeRoot, type Hash, type NodeSource } from '#lib/vote-record/merkle';
import type { KeyStatus, PublishedKey } from '#lib/vote-record/key-set';
import { checkReceipt, type PublishedCheckpoint, type ReceiptCheckInput } from '#lib/vote-record/receipt-check';

const SITE = 7;
const { privateKey } = generateKeyPairSync('ed25519');
const published = (signer: KeyObject, status: KeyStatus = 'current', retiredAt?: string): PublishedKey => ({
  keyId: keyIdOf(signer),
  publicKey: rawPublicKey(signer).toString('base64'),
  status,
  retiredAt,
});
const keys = [published(privateKey)];
const receipts = Array.from({ length: 11 }, () => randomBytes(32).toString('hex'));
const now = new Date('2030-01-01T12:00:00Z');

function source(leaves: readonly string[]): NodeSource {
  const node = (level: number, index: number): Hash =>
    level === 0 ? leafHash(Buffer.from(leaves[index]!, 'hex')) : nodeHash(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
  return node;
}

/** A checkpoint as the API answers it: no site, no field for the `complete` line (the signature covers it when `complete`). */
function signed(id: number, size: number, leaves: readonly string[] = receipts, cut = '2030-01-01T11:00:00.000Z', signer: KeyObject = privateKey, complete = false): PublishedCheckpoint {
  const { siteId: _site, complete: _said, ...rest } = signCheckpoint({ siteId: SITE, id, treeSize: size, root: treeRoot(source(leaves), size).toString('hex'), cut, ballots: size, complete }, signer);
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
    keys,
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
    expect(failures({ ...input, keys: [published(other)] }).filter((line) => /not a published key/.test(line))).toHaveLength(2);
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

  it('a checkpoint that says the log holds every ballot checks in that form; a latest one that no longer says it fails', () => {
    const input = honest();
    const completeAt = signed(1, 5, receipts, undefined, undefined, true);
    const completeLatest = signed(2, 11, receipts, undefined, undefined, true);
    const check = checkReceipt({ ...input, inclusion: { ...input.inclusion, checkpoint: completeAt }, latest: completeLatest });
    expect(check.lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(check.lines.join('\n')).toMatch(/checkpoint 1 .* and says the log holds every ballot of the site/);
    expect(failures({ ...input, inclusion: { ...input.inclusion, checkpoint: completeAt } }).join('\n')).toMatch(/latest checkpoint 2 no longer says the log holds every ballot, as checkpoint 1 did/);
  });

  it('fails when the latest checkpoint is older than the receipt\'s (cut before it)', () => {
    const input = honest();
    expect(failures({ ...input, latest: signed(2, 11, receipts, '2030-01-01T10:00:00.000Z') }).join('\n')).toMatch(/latest checkpoint 2 \(cut 2030-01-01T10:00:00.000Z\) is older than the receipt's checkpoint 1/);
  });

  it('compares the receipt\'s checkpoint with the time the vote was cast, when known', () => {
    const input = honest();
    expect(checkReceipt(input).lines.join('\n')).toMatch(/note {2}the time of the vote is not known here/);
    expect(checkReceipt({ ...input, castAt: '2030-01-01T10:59:00.000Z' }).ok).toBe(true);
    expect(failures({ ...input, castAt: '2030-01-01T11:05:00.000Z' }).join('\n')).toMatch(/checkpoint 1 says it holds only the votes cast up to 2030-01-01T11:00:00.000Z, yet holds this one, cast at 2030-01-01T11:05:00.000Z: a backdated checkpoint/);
  });

  it('refuses a receipt that is not 64 hex digits, and checks nothing further', () => {
    expect(checkReceipt({ ...honest(), receipt: 'xyz' })).toMatchObject({ ok: false });
    expect(checkReceipt({ ...honest(), receipt: 'xyz' }).lines.slice(1)).toEqual(['FAIL  the receipt "xyz" is not 64 hex digits']);
  });

  it('tells the voter each step it checked, one line each', () => {
    const id = keyIdOf(privateKey);
    expect(checkReceipt({ ...honest(), receipt: receipts[2]!.toUpperCase() }).lines).toEqual([
      `ok    1 published key(s): ${id} (current)`,
      'ok    the receipt is 64 hex digits',
      'ok    the proof is for this receipt',
      `ok    checkpoint 1 (5 entries) is signed by key ${id} for participation-api/site/${SITE}/votes`,
      "ok    the receipt is leaf 2 of checkpoint 1's tree",
      `ok    the latest checkpoint 2 (11 entries) is signed by key ${id}`,
      'ok    the latest checkpoint (cut 2030-01-01T11:00:00.000Z) is not older than checkpoint 1 (cut 2030-01-01T11:00:00.000Z)',
      "note  the time of the vote is not known here: checkpoint 1's cut is not compared with it (give the vote answer, or --voted-at)",
      'ok    the latest checkpoint extends checkpoint 1 (consistency proof 5 -> 11)',
      'ok    checkpoint 1 was cut at 2030-01-01T11:00:00.000Z, not in the future',
      'ok    checkpoint 2 was cut at 2030-01-01T11:00:00.000Z, not in the future',
    ]);
    // The latest checkpoint is the receipt's own: its tree and its cut are checked once.
    const input = honest();
    expect(checkReceipt({ ...input, latest: input.inclusion.checkpoint, consistency: null }).lines.slice(5)).toEqual([
      `ok    the latest checkpoint 1 (5 entries) is signed by key ${id}`,
      'ok    the latest checkpoint (cut 2030-01-01T11:00:00.000Z) is not older than checkpoint 1 (cut 2030-01-01T11:00:00.000Z)',
      "note  the time of the vote is not known here: checkpoint 1's cut is not compared with it (give the vote answer, or --voted-at)",
      'ok    the latest checkpoint is the same tree',
      'ok    checkpoint 1 was cut at 2030-01-01T11:00:00.000Z, not in the future',
    ]);
  });

  it('says why a checkpoint fails: edited, cut back, or cut in the future; a cut at the very moment of the check is not', () => {
    const input = honest();
    const id = keyIdOf(privateKey);
    expect(failures({ ...input, inclusion: { ...input.inclusion, checkpoint: { ...input.inclusion.checkpoint, ballots: 4 } } })).toEqual([
      `FAIL  checkpoint 1 of the proof is not signed by a published key: its signature does not verify with key ${id} for participation-api/site/${SITE}/votes (edited)`,
    ]);
    expect(failures({ ...input, latest: { ...input.latest, ballots: 10 } })).toEqual([
      `FAIL  the latest checkpoint 2 is not signed by a published key: its signature does not verify with key ${id} for participation-api/site/${SITE}/votes (edited)`,
    ]);
    expect(failures({ ...input, latest: signed(2, 4), consistency: null })).toEqual(['FAIL  the latest checkpoint (4 entries) is smaller than checkpoint 1 (5): the log was cut back']);
    expect(failures({ ...input, latest: signed(2, 11, receipts, '2030-01-01T12:00:00.001Z') })).toEqual(['FAIL  checkpoint 2 says it was cut at 2030-01-01T12:00:00.001Z, in the future']);
    expect(checkReceipt({ ...input, latest: signed(2, 11, receipts, '2030-01-01T12:00:00.000Z') }).ok).toBe(true);
  });

  it('a proof that is not a list of hashes fails its step, and the check goes on', () => {
    const input = honest();
    for (const proof of [null, [...input.inclusion.proof.slice(0, -1), 5], 'ab'.repeat(32)]) {
      const check = checkReceipt({ ...input, inclusion: { ...input.inclusion, proof: proof as never } });
      expect(check.lines.filter((line) => line.startsWith('FAIL'))).toEqual([`FAIL  the receipt is not leaf 2 of checkpoint 1's tree: the proof does not give its root`]);
      expect(check.lines).toHaveLength(11);
    }
    for (const consistency of [[5], { length: 0 }]) {
      expect(failures({ ...input, consistency: consistency as never })).toEqual([
        'FAIL  the latest checkpoint does not extend checkpoint 1: the consistency proof 5 -> 11 fails (entries rewritten, dropped or reordered)',
      ]);
    }
  });

  it('a published key that cannot be read is a failure of its own; with none left, no checkpoint is trusted', () => {
    const unreadable = { keyId: 'deadbeefdeadbeef', publicKey: 'not a key', status: 'current' as const };
    const check = checkReceipt({ ...honest(), keys: [unreadable, ...keys] });
    expect(check.ok).toBe(false);
    expect(check.lines[0]).toBe('FAIL  the published key deadbeefdeadbeef is not an Ed25519 public key');
    expect(failures({ ...honest(), keys: [] })).toEqual(expect.arrayContaining(['FAIL  no usable published key']));
  });

  describe('across a rotation of the signing key', () => {
    const old = privateKey;
    const fresh = generateKeyPairSync('ed25519').privateKey;
    const retiredAt = '2030-01-01T11:30:00.000Z';
    const rotated = [published(fresh), published(old, 'retired', retiredAt)];
    /** The receipt's checkpoint signed by the old key before the rotation, the latest by the new key. */
    function acrossRotation(): ReceiptCheckInput {
      const input = honest();
      return { ...input, latest: signed(2, 11, receipts, '2030-01-01T11:45:00.000Z', fresh), keys: rotated };
    }

    it('a checkpoint signed before the rotation still checks, each with the key it names', () => {
      const check = checkReceipt(acrossRotation());
      expect(check.lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
      expect(check.ok).toBe(true);
      expect(check.lines.join('\n')).toContain(`signed by key ${keyIdOf(old)}`);
      expect(check.lines.join('\n')).toContain(`signed by key ${keyIdOf(fresh)}`);
    });

    it('with only the current key (what one published key gave before), the old checkpoint is refused by its key id', () => {
      expect(failures({ ...acrossRotation(), keys: [published(fresh)] }).join('\n')).toMatch(new RegExp(`names key ${keyIdOf(old)}, which is not a published key`));
    });

    it('refuses a checkpoint cut after its key was retired (a leaked retired key signing a fresh checkpoint)', () => {
      const input = acrossRotation();
      const forged = signed(2, 11, receipts, '2030-01-01T11:50:00.000Z', old);
      expect(failures({ ...input, latest: forged }).join('\n')).toMatch(/retired at 2030-01-01T11:30:00.000Z, but cut later/);
    });

    it('a fork signed by a leaked retired key, backdated to before its retirement, fails against the time the vote was cast', () => {
      // The vote was cast after the rotation; the forger shows it in a tree of their own, both
      // checkpoints signed by the old key with cuts before its retirement (so the key is taken).
      const input = acrossRotation();
      const castAt = '2030-01-01T11:40:00.000Z';
      const fork = { ...input, inclusion: { ...input.inclusion, checkpoint: signed(1, 5, receipts, '2030-01-01T11:10:00.000Z', old) }, latest: signed(2, 11, receipts, '2030-01-01T11:20:00.000Z', old) };
      expect(checkReceipt(fork).ok).toBe(true);
      expect(failures({ ...fork, castAt }).join('\n')).toMatch(/a backdated checkpoint/);
      // The honest record: the receipt's checkpoint cut after the vote, by the new key.
      const honestOne = { ...input, inclusion: { ...input.inclusion, checkpoint: signed(1, 5, receipts, '2030-01-01T11:45:00.000Z', fresh) }, latest: signed(2, 11, receipts, '2030-01-01T11:50:00.000Z', fresh) };
      expect(checkReceipt({ ...honestOne, castAt }).ok).toBe(true);
    });

    it('refuses a key listed under another key\'s id', () => {
      const input = acrossRotation();
      const swapped = [{ ...published(fresh), keyId: keyIdOf(old), status: 'retired' as const, retiredAt }, published(fresh)];
      expect(failures({ ...input, keys: swapped }).join('\n')).toMatch(/listed as .* has the id/);
    });
  });
});
