/**
 * The audit of a vote log, one tampering at a time, as someone with write access to the table (but not
 * to the chain or signing key) would try it. Each case starts from an intact log that audits clean.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditVoteLog, type LogAuditInput } from '#lib/vote-record/audit';
import { keyIdOf, signCheckpoint, type SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { batchOrder, entryMac, GENESIS_MAC, type SealedEntry, sealEntry } from '#lib/vote-record/entry';
import { keySetOfKeys } from '#lib/vote-record/key-set';
import { appendLeaves, EMPTY_FRONTIER, frontierRoot, leafHash } from '#lib/vote-record/merkle';

const SITE = 7;
const chainKey = Buffer.alloc(32, 7);
const { privateKey } = generateKeyPairSync('ed25519');
const publicKey = createPublicKey(privateKey);
const publicKeys = keySetOfKeys([{ key: publicKey, status: 'current' }]);

const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 12, minute)).toISOString();

/** Entries of three voters: user 1 votes three times, user 2 twice, user 3 once. */
function history(): SealedEntry[] {
  const entries: SealedEntry[] = [];
  const heads = new Map<number, SealedEntry>();
  const write = (userId: number, ideaIds: number[], minute: number) => {
    const previous = heads.get(userId);
    const entry = sealEntry(chainKey, {
      siteId: SITE,
      userId,
      version: (previous?.version ?? 0) + 1,
      prevMac: previous?.mac ?? GENESIS_MAC,
      votes: ideaIds.map((ideaId) => ({ ideaId, opinion: 'yes' })),
      writtenAt: at(minute),
    });
    heads.set(userId, entry);
    entries.push(entry);
  };
  write(1, [10], 1);
  write(2, [10, 11], 2);
  write(1, [11], 3);
  write(3, [12], 4);
  write(2, [], 6);
  write(1, [10, 12], 7);
  return entries;
}

/** Sequences entries into checkpoints cut at the given minutes (as the checkpoint job does), saying `complete` from checkpoint `completeFrom` on. */
function sequence(entries: readonly SealedEntry[], cuts: number[], completeFrom = Infinity): { leaves: Buffer[]; checkpoints: SignedCheckpoint[] } {
  const leaves: Buffer[] = [];
  const checkpoints: SignedCheckpoint[] = [];
  let frontier = EMPTY_FRONTIER;
  const ballots = new Set<number>();
  let done = '';
  cuts.forEach((minute, i) => {
    const cut = at(minute);
    const batch = entries.filter((e) => e.writtenAt > done && e.writtenAt <= cut).sort(batchOrder);
    for (const entry of batch) {
      leaves.push(Buffer.from(entry.mac, 'hex'));
      ballots.add(entry.userId);
    }
    frontier = appendLeaves(frontier, batch.map((e) => leafHash(Buffer.from(e.mac, 'hex'))));
    const complete = i + 1 >= completeFrom;
    checkpoints.push(signCheckpoint({ siteId: SITE, id: i + 1, treeSize: frontier.size, root: frontierRoot(frontier).toString('hex'), cut, ballots: ballots.size, ...(complete ? { complete } : {}) }, privateKey));
    done = cut;
  });
  return { leaves, checkpoints };
}

let input: LogAuditInput;
beforeEach(() => {
  const entries = history();
  const { leaves, checkpoints } = sequence(entries, [2, 5, 8]);
  input = { siteId: SITE, now: at(30), chainKey, publicKeys, entries, leaves, checkpoints };
});

const problemsOf = (changed: Partial<LogAuditInput>) => auditVoteLog({ ...input, ...changed }).problems;

describe('vote log audit', () => {
  it('an intact log audits clean, and replays each ballot to its latest version', () => {
    const audit = auditVoteLog(input);
    expect(audit.problems).toEqual([]);
    expect(audit.checkpoint?.id).toBe(3);
    expect([...audit.latest].map(([user, e]) => [user, e.version, e.votes.map((v) => v.ideaId)])).toEqual([
      [1, 3, [10, 12]],
      [2, 2, []],
      [3, 1, [12]],
    ]);
  });

  it('a forged new version (the old chain extended, the mac recomputed without the key, dated in the future)', () => {
    const head = input.entries.find((e) => e.userId === 3)!;
    const forged = { siteId: SITE, userId: 3, version: 2, prevMac: head.mac, votes: [{ ideaId: 11, opinion: 'yes' }], writtenAt: at(60) };
    const problems = problemsOf({ entries: [...input.entries, { ...forged, mac: entryMac(Buffer.alloc(32, 1), forged) }] });
    expect(problems.some((p) => p.includes('user 3, version 2 is not sealed by the chain key'))).toBe(true);
    expect(problems.some((p) => p.includes('dated in the future'))).toBe(true);
  });

  it('an edited old version (its votes changed, its mac kept)', () => {
    const entries = input.entries.map((e) => (e.userId === 1 && e.version === 1 ? { ...e, votes: [{ ideaId: 12, opinion: 'yes' }] } : e));
    expect(problemsOf({ entries })).toEqual([expect.stringContaining('user 1, version 1 is not sealed by the chain key')]);
  });

  it('a deleted version (the middle version of a ballot removed from the table)', () => {
    const entries = input.entries.filter((e) => !(e.userId === 1 && e.version === 2));
    const problems = problemsOf({ entries });
    expect(problems).toContain('the ballot of user 1 has no version 2: a deleted version');
    expect(problems.some((p) => p.includes('has no entry: a deleted entry'))).toBe(true);
  });

  it('a deleted latest version, with the log left alone: its leaf has no entry', () => {
    const entries = input.entries.filter((e) => !(e.userId === 1 && e.version === 3));
    expect(problemsOf({ entries })).toEqual([expect.stringMatching(/log leaf \d+ .* has no entry: a deleted entry/)]);
  });

  it('a reordered log (two leaves swapped)', () => {
    const leaves = [...input.leaves];
    [leaves[2], leaves[3]] = [leaves[3]!, leaves[2]!];
    const problems = problemsOf({ leaves });
    expect(problems).toContain('log leaves 2 and 3 are out of order (a reordered log)');
    expect(problems.some((p) => p.startsWith('checkpoint 3: the log\'s first 6 leaves give root'))).toBe(true);
  });

  it('an entry moved into a later batch than its time: the batch holds an entry within the previous cut', () => {
    const first = input.checkpoints[0]!.treeSize;
    const leaves = [...input.leaves];
    const moved = leaves.splice(first - 1, 1)[0]!;
    leaves.splice(first, 0, moved);
    const problems = problemsOf({ leaves });
    expect(problems.some((p) => /within checkpoint 1's cut, yet checkpoint 2 holds it/.test(p))).toBe(true);
  });

  it('a leaf replaced by another entry\'s receipt, and a leaf removed from the log', () => {
    const leaves = [...input.leaves];
    leaves[4] = leaves[0]!;
    expect(problemsOf({ leaves }).some((p) => p.includes('repeats leaf 0'))).toBe(true);
    expect(problemsOf({ leaves: input.leaves.slice(0, 5) })).toContain('checkpoint 3 covers 6 entries, the log holds 5: entries were removed from the log');
  });

  it('a replaced checkpoint: an edited root, a copied signature, a deleted one, one moved back in time', () => {
    const [c1, c2, c3] = input.checkpoints as [SignedCheckpoint, SignedCheckpoint, SignedCheckpoint];
    expect(problemsOf({ checkpoints: [c1, c2, { ...c3, root: c2.root, treeSize: c2.treeSize }] })).toContain(
      'checkpoint 3: the signature does not verify (a replaced or edited checkpoint)',
    );
    expect(problemsOf({ checkpoints: [c1, c2, { ...c2, id: 3 }] })).toContain('checkpoint 3: the signature does not verify (a replaced or edited checkpoint)');
    expect(problemsOf({ checkpoints: [c1, c3] })).toContain('checkpoint 2 is missing (the next one is 3): a deleted checkpoint');
    const other = generateKeyPairSync('ed25519').privateKey;
    const resigned = signCheckpoint({ ...c3, root: c2.root }, other);
    expect(problemsOf({ checkpoints: [c1, c2, resigned] })).toContain(`checkpoint 3: it names key ${keyIdOf(other)}, which is not a published key`);
  });

  it('across a rotation: each checkpoint is checked with the key it names; an unpublished id, or a retired key past its retirement, is refused', () => {
    const [c1, c2, c3] = input.checkpoints as [SignedCheckpoint, SignedCheckpoint, SignedCheckpoint];
    const fresh = generateKeyPairSync('ed25519').privateKey;
    const rotated = signCheckpoint(c3, fresh);
    // Retired between checkpoint 2 (signed by the old key) and checkpoint 3 (by the new one).
    const keys = keySetOfKeys([
      { key: createPublicKey(fresh), status: 'current' },
      { key: publicKey, status: 'retired', retiredAt: at(7) },
    ]);
    expect(auditVoteLog({ ...input, publicKeys: keys, checkpoints: [c1, c2, rotated] }).problems).toEqual([]);
    // The current key alone (one published key, as before rotation existed): the old checkpoints fail by their key id.
    const currentOnly = keySetOfKeys([{ key: createPublicKey(fresh), status: 'current' }]);
    expect(problemsOf({ publicKeys: currentOnly, checkpoints: [c1, c2, rotated] })).toEqual(
      expect.arrayContaining([`checkpoint 1: it names key ${keyIdOf(publicKey)}, which is not a published key`]),
    );
    // The old key signing a checkpoint cut after its retirement (a leaked retired key).
    expect(problemsOf({ publicKeys: keys })).toContain(`checkpoint 3: it is signed by key ${keyIdOf(publicKey)}, retired at ${at(7)}, but cut later (${at(8)})`);
  });

  it('a checkpoint signed by the real key over a rewritten history fails its consistency with the one before', () => {
    // What an operator holding the signing key could do (outside the threat model), caught all the same
    // by anyone holding the earlier checkpoint.
    const entries = input.entries.map((e) => (e.userId === 1 && e.version === 1 ? sealEntry(chainKey, { ...e, writtenAt: at(1) }) : e));
    const rewritten = sequence(entries.map((e) => (e.userId === 2 ? { ...e, mac: e.mac.replace(/^./, 'f') } : e)), [2, 5, 8]);
    const problems = problemsOf({ leaves: rewritten.leaves, checkpoints: [input.checkpoints[0]!, ...rewritten.checkpoints.slice(1)] });
    expect(problems.some((p) => p.includes('does not extend checkpoint 1') || p.includes("the log's first"))).toBe(true);
  });

  it('a pinned checkpoint kept outside the table exposes a rollback and a fork', () => {
    const later = { ...input.entries[0]!, userId: 4, version: 1, prevMac: GENESIS_MAC, writtenAt: at(9) };
    const grown = [...input.entries, sealEntry(chainKey, later)];
    const { leaves, checkpoints } = sequence(grown, [2, 5, 8, 10]);
    const pinned = checkpoints[3]!;
    // The table rolled back to three checkpoints and six leaves.
    expect(problemsOf({ pinned })).toContain('the pinned checkpoint covers 7 entries, the log now holds 6: the log was rolled back');
    expect(auditVoteLog({ ...input, entries: grown, leaves, checkpoints, pinned }).problems).toEqual([]);
    expect(problemsOf({ entries: grown, leaves, checkpoints, pinned: { ...pinned, root: input.checkpoints[2]!.root } })).toContain('the pinned checkpoint: its signature does not verify');
    // A fork: two validly signed heads of one size with different roots (only the key holder can sign).
    const fork = signCheckpoint({ ...input.checkpoints[2]!, root: input.checkpoints[1]!.root }, privateKey);
    const problems = problemsOf({ pinned: fork });
    expect(problems).toContain("the pinned checkpoint's root differs from the log's at size 6: the log was rewritten (a fork)");
    expect(problems).toContain('checkpoint 3 in the table differs from the pinned copy');
  });

  it('an entry older than the latest cut that never reached the log, and a checkpoint dated in the future', () => {
    const late = sealEntry(chainKey, { siteId: SITE, userId: 9, version: 1, prevMac: GENESIS_MAC, votes: [], writtenAt: at(3) });
    expect(problemsOf({ entries: [...input.entries, late] })).toEqual([expect.stringContaining('user 9, version 1 (written')]);
    const early = auditVoteLog({ ...input, now: at(7) }).problems;
    expect(early).toContain(`checkpoint 3 is dated in the future (${at(8)})`);
  });

  describe('a log that holds every ballot (the `complete` line)', () => {
    const completeFrom2 = () => sequence(history(), [2, 5, 8], 2);

    it('is read from the signatures: from the first checkpoint that says it; checkpoints without the line say nothing', () => {
      expect(auditVoteLog(input).complete).toBeUndefined();
      const audit = auditVoteLog({ ...input, ...completeFrom2() });
      expect(audit.problems).toEqual([]);
      expect(audit.complete?.id).toBe(2);
    });

    it('a record stripped of the line it was signed with is an edited checkpoint, and still counts as saying it', () => {
      const { leaves, checkpoints } = completeFrom2();
      const stripped = checkpoints.map((cp) => (cp.id === 2 ? { ...cp, complete: undefined } : cp));
      const audit = auditVoteLog({ ...input, leaves, checkpoints: stripped });
      expect(audit.problems).toEqual(['checkpoint 2: its record drops the `complete` line it was signed with (an edited checkpoint)']);
      expect(audit.complete?.id).toBe(2);
    });

    it('a later checkpoint signed without the line (the job misled by a rewritten log head) is a problem', () => {
      const { leaves, checkpoints } = completeFrom2();
      const { signature: _s, keyId: _k, ...c3 } = checkpoints[2]!;
      const resigned = signCheckpoint({ ...c3, complete: false }, privateKey);
      expect(problemsOf({ leaves, checkpoints: [checkpoints[0]!, checkpoints[1]!, resigned] })).toEqual([
        'checkpoint 3 no longer says the log holds every ballot, as checkpoint 2 did (signed over a rewritten log head, or the log lost ballots)',
      ]);
    });

    it('a pinned copy kept outside (as published: no `complete` field) says it for a table whose checkpoints do not', () => {
      const { complete: _said, ...kept } = completeFrom2().checkpoints[1]!;
      const audit = auditVoteLog({ ...input, pinned: kept });
      expect(audit.complete?.id).toBe(2);
      expect(audit.problems).toEqual([
        'checkpoint 3 no longer says the log holds every ballot, as the pinned checkpoint 2 did (signed over a rewritten log head, or the log lost ballots)',
      ]);
    });
  });

  it('entries written after the latest checkpoint are noted as pending, not as problems', () => {
    const fresh = sealEntry(chainKey, { siteId: SITE, userId: 9, version: 1, prevMac: GENESIS_MAC, votes: [], writtenAt: at(20) });
    const audit = auditVoteLog({ ...input, entries: [...input.entries, fresh] });
    expect(audit.problems).toEqual([]);
    expect(audit.notes).toContain('1 entry written since the latest checkpoint, not in the log yet');
  });

  it('entries and checkpoints stored in any order audit as in order', () => {
    const audit = auditVoteLog({ ...input, entries: [...input.entries].reverse(), checkpoints: [...input.checkpoints].reverse() });
    expect(audit.problems).toEqual([]);
    expect(audit.checkpoint?.id).toBe(3);
    expect(audit.latest.get(1)?.version).toBe(3);
  });

  it('an entry of another site, and an entry stored twice', () => {
    const foreign = sealEntry(chainKey, { siteId: SITE + 1, userId: 9, version: 1, prevMac: GENESIS_MAC, votes: [], writtenAt: at(20) });
    expect(problemsOf({ entries: [...input.entries, foreign] })).toEqual([`the ballot of user 9, version 1 belongs to site ${SITE + 1}`]);
    const copied = input.entries[3]!;
    expect(problemsOf({ entries: [...input.entries, { ...copied }] })).toEqual(
      expect.arrayContaining([`two entries carry the receipt ${copied.mac}`, 'the ballot of user 3 has two versions 1']),
    );
  });

  it('an entry written at the auditor\'s very moment is not in the future', () => {
    const fresh = sealEntry(chainKey, { siteId: SITE, userId: 9, version: 1, prevMac: GENESIS_MAC, votes: [], writtenAt: at(30) });
    expect(problemsOf({ entries: [...input.entries, fresh] })).toEqual([]);
  });

  it('a ballot whose first kept version is not the first: its first versions were deleted', () => {
    const entries = input.entries.filter((e) => !(e.userId === 2 && e.version === 1));
    expect(problemsOf({ entries })).toContain('the ballot of user 2 has no version 1: a deleted version');
  });

  it('a version 1 that does not start the chain, and a version that names another than the one before (sealed with the key)', () => {
    const start = input.entries.map((e) => (e.userId === 3 ? sealEntry(chainKey, { ...e, prevMac: input.entries[0]!.mac }) : e));
    expect(problemsOf({ entries: start })).toContain('the ballot of user 3, version 1 does not start the chain');
    const broken = input.entries.map((e) => (e.userId === 2 && e.version === 2 ? sealEntry(chainKey, { ...e, prevMac: input.entries[0]!.mac }) : e));
    expect(problemsOf({ entries: broken })).toContain('the ballot of user 2, version 2 does not follow version 1: the chain is broken');
  });

  it('a checkpoint signed with a wrong ballot count, one cut before the entries it holds, and one going back in time', () => {
    const [c1, c2, c3] = input.checkpoints as [SignedCheckpoint, SignedCheckpoint, SignedCheckpoint];
    const miscounted = signCheckpoint({ ...c3, ballots: 2 }, privateKey);
    expect(problemsOf({ checkpoints: [c1, c2, miscounted] })).toEqual(['checkpoint 3 says 2 ballot(s), its entries hold 3']);
    const early = signCheckpoint({ ...c3, cut: at(6) }, privateKey);
    expect(problemsOf({ checkpoints: [c1, c2, early] })).toEqual([`the ballot of user 1, version 3 was written at ${at(7)}, after the cut of checkpoint 3 that holds it`]);
    const back = signCheckpoint({ ...c2, cut: at(1) }, privateKey);
    expect(problemsOf({ checkpoints: [c1, back, c3] })).toContain('checkpoint 2 goes back from checkpoint 1 (cut or size)');
    expect(auditVoteLog({ ...input, checkpoints: [c1, back] }).checkpoint?.id).toBe(1);
  });

  it('a first checkpoint of an empty log, cut before any entry, audits clean', () => {
    const { leaves, checkpoints } = sequence(input.entries, [0, 2, 5, 8]);
    expect(checkpoints[0]!.treeSize).toBe(0);
    const audit = auditVoteLog({ ...input, leaves, checkpoints });
    expect(audit.problems).toEqual([]);
    expect(audit.checkpoint?.id).toBe(4);
  });

  it('counts several pending entries, and notes a pinned checkpoint that is a prefix of the log', () => {
    const fresh = [20, 21].map((minute, i) => sealEntry(chainKey, { siteId: SITE, userId: 20 + i, version: 1, prevMac: GENESIS_MAC, votes: [], writtenAt: at(minute) }));
    const audit = auditVoteLog({ ...input, entries: [...input.entries, ...fresh], pinned: input.checkpoints[1] });
    expect(audit.problems).toEqual([]);
    expect(audit.notes).toEqual(['2 entries written since the latest checkpoint, not in the log yet', `the pinned checkpoint (size ${input.checkpoints[1]!.treeSize}) is a prefix of the log`]);
  });

  it('an intact log has no notes either, and a log without checkpoints leaves every entry pending', () => {
    expect(auditVoteLog(input).notes).toEqual([]);
    const none = auditVoteLog({ ...input, leaves: [], checkpoints: [] });
    expect(none.problems).toEqual([]);
    expect(none.checkpoint).toBeUndefined();
    expect(none.notes).toEqual(['6 entries written since the latest checkpoint, not in the log yet']);
  });

  it('a checkpoint of another site, even validly signed, is not this log\'s', () => {
    const [c1, c2, c3] = input.checkpoints as [SignedCheckpoint, SignedCheckpoint, SignedCheckpoint];
    const foreign = signCheckpoint({ ...c3, siteId: SITE + 1 }, privateKey);
    expect(problemsOf({ checkpoints: [c1, c2, foreign] })).toEqual(['checkpoint 3: the signature does not verify (a replaced or edited checkpoint)']);
    expect(problemsOf({ pinned: foreign })).toEqual(['the pinned checkpoint: its signature does not verify']);
  });

  it('a checkpoint cut at the auditor\'s very moment is not in the future; an entry written at the latest cut must be in the log', () => {
    expect(problemsOf({ now: at(8) })).toEqual([]);
    const atCut = sealEntry(chainKey, { siteId: SITE, userId: 9, version: 1, prevMac: GENESIS_MAC, votes: [], writtenAt: at(8) });
    expect(problemsOf({ entries: [...input.entries, atCut] })).toEqual([`the ballot of user 9, version 1 (written ${at(8)}) is not in the log, though checkpoint 3 covers that time`]);
  });

  it('names a repeated or unknown leaf and a wrong root by the first 16 hex digits of their hashes; a wrong root is not a good checkpoint', () => {
    const leaves = [...input.leaves];
    leaves[4] = leaves[0]!;
    const receipt = leaves[0]!.toString('hex').slice(0, 16);
    const missing = input.leaves[4]!.toString('hex');
    const problems = problemsOf({ leaves });
    expect(problems).toContain(`log leaf 4 repeats leaf 0 (receipt ${receipt}...)`);
    expect(problems).toContain(`checkpoint 3: the log's first 6 leaves give root ${frontierRoot(appendLeaves(EMPTY_FRONTIER, leaves.map(leafHash))).toString('hex').slice(0, 16)}..., it signed ${input.checkpoints[2]!.root.slice(0, 16)}...`);
    expect(problems).toContain(`the ballot of user ${input.entries.find((e) => e.mac === missing)!.userId}, version ${input.entries.find((e) => e.mac === missing)!.version} (written ${input.entries.find((e) => e.mac === missing)!.writtenAt}) is not in the log, though checkpoint 3 covers that time`);
    expect(auditVoteLog({ ...input, leaves }).checkpoint?.id).toBe(2);
    const forged = { ...input.entries[0]!, votes: [] };
    expect(problemsOf({ entries: [forged, ...input.entries.slice(1)] })).toContain(`the ballot of user 1, version 1 is not sealed by the chain key: a forged or edited entry (receipt ${forged.mac.slice(0, 16)}...)`);
  });

  it('leaves past the latest checkpoint are not audited yet', () => {
    expect(problemsOf({ leaves: [...input.leaves, Buffer.alloc(32, 9)] })).toEqual([]);
  });

  it('a checkpoint signed over a root that the next one does not extend: the next fails its consistency, and neither is good', () => {
    const [c1, c2] = input.checkpoints as [SignedCheckpoint, SignedCheckpoint];
    const wrong = signCheckpoint({ ...c1, root: c2.root }, privateKey);
    const audit = auditVoteLog({ ...input, checkpoints: [wrong, c2] });
    expect(audit.problems).toContain('checkpoint 2 does not extend checkpoint 1 (consistency proof fails)');
    expect(audit.checkpoint).toBeUndefined();
  });

  it('a checkpoint with no new entries since the one before (same size, later cut) audits clean', () => {
    const [c1, c2, c3] = input.checkpoints as [SignedCheckpoint, SignedCheckpoint, SignedCheckpoint];
    const quiet = signCheckpoint({ ...c3, id: 4, cut: at(12) }, privateKey);
    const audit = auditVoteLog({ ...input, checkpoints: [c1, c2, c3, quiet] });
    expect(audit.problems).toEqual([]);
    expect(audit.checkpoint?.id).toBe(4);
  });

  it('a pinned checkpoint at a size no stored checkpoint has, and one signed by a key nobody published', () => {
    const { leaves, checkpoints } = sequence(input.entries, [2, 3, 5, 8]);
    const between = checkpoints[1]!;
    expect(between.treeSize).not.toBe(input.checkpoints[0]!.treeSize);
    const audit = auditVoteLog({ ...input, leaves, pinned: { ...between, id: 9 } });
    expect(audit.problems).toEqual(['the pinned checkpoint: its signature does not verify']);
    const pinned = signCheckpoint({ ...between, id: 9 }, privateKey);
    expect(auditVoteLog({ ...input, pinned }).notes).toEqual([`the pinned checkpoint (size ${between.treeSize}) is a prefix of the log`]);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    expect(problemsOf({ pinned: signCheckpoint(input.checkpoints[2]!, stranger) })).toEqual([`the pinned checkpoint: it names key ${keyIdOf(stranger)}, which is not a published key`]);
  });
});
