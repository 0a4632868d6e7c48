/** Entries sealed with the chain key, checkpoints signed with Ed25519, and the keys read from the environment. */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkpointSignatureIsValid, checkpointText, publicKeyFromRaw, rawPublicKey, signCheckpoint, signedForm } from '#lib/vote-record/checkpoint';
import { entryBytes, entryMac, GENESIS_MAC, batchOrder, isReceipt, macIsValid, sealEntry, type VoteEntry } from '#lib/vote-record/entry';
import { randomBytes } from 'node:crypto';
import { voteChainKey, voteSigningKey } from '#lib/config/secret-values';
import { publishedKey, publishedKeys, voteRecordKeysOf } from '#lib/vote-record/keys';
import { entryItemOf, sealedOf } from '#lib/vote-record/entry-item';
import { keySetOfKeys } from '#lib/vote-record/key-set';

const freshKeys = () => voteRecordKeysOf(randomBytes(32), randomBytes(32));

const key = Buffer.alloc(32, 1);
const entry: VoteEntry = {
  siteId: 3,
  userId: 42,
  version: 1,
  prevMac: GENESIS_MAC,
  votes: [{ ideaId: 9, opinion: 'yes' }, { ideaId: 2, opinion: 'no' }],
  writtenAt: '2026-05-01T12:00:00.000Z',
};

describe('log entries', () => {
  it('the mac covers every field and the vote order does not matter', () => {
    const mac = entryMac(key, entry);
    expect(isReceipt(mac)).toBe(true);
    expect(entryMac(key, { ...entry, votes: [...entry.votes].reverse() })).toBe(mac);
    for (const changed of [
      { siteId: 4 },
      { userId: 43 },
      { version: 2 },
      { prevMac: 'a'.repeat(64) },
      { votes: [{ ideaId: 9, opinion: 'yes' }] },
      { votes: [{ ideaId: 9, opinion: 'no' }, { ideaId: 2, opinion: 'no' }] },
      { writtenAt: '2026-05-01T12:00:00.001Z' },
    ]) {
      expect(entryMac(key, { ...entry, ...changed })).not.toBe(mac);
    }
    expect(entryMac(Buffer.alloc(32, 2), entry)).not.toBe(mac);
  });

  it('two votes on one idea are ordered by opinion; rejected votes are covered in their own canonical order, and none is as absent', () => {
    const both = { ...entry, votes: [{ ideaId: 5, opinion: 'yes' }, { ideaId: 5, opinion: 'no' }, { ideaId: 5, opinion: 'abstain' }] };
    const mac = entryMac(key, both);
    expect(entryMac(key, { ...both, votes: [both.votes[1]!, both.votes[2]!, both.votes[0]!] })).toBe(mac);
    expect(entryMac(key, { ...both, votes: [both.votes[2]!, both.votes[0]!, both.votes[1]!] })).toBe(mac);
    expect(entryMac(key, { ...entry, rejected: [] })).toBe(entryMac(key, entry));
    const rejected = [{ ideaId: 4, opinion: 'yes', by: 1 }, { ideaId: 4, opinion: 'no', by: null }, { ideaId: 3, opinion: 'yes', by: 2 }];
    const withRejected = entryMac(key, { ...entry, rejected });
    expect(withRejected).not.toBe(entryMac(key, entry));
    expect(entryMac(key, { ...entry, rejected: [rejected[2]!, rejected[1]!, rejected[0]!] })).toBe(withRejected);
    expect(entryMac(key, { ...entry, rejected: [rejected[1]!, rejected[0]!, rejected[2]!] })).toBe(withRejected);
    expect(entryMac(key, { ...entry, rejected: [{ ...rejected[0]!, by: 2 }, rejected[1]!, rejected[2]!] })).not.toBe(withRejected);
  });

  it('the encoding under the mac does not change: fixed entries give the receipts voters already hold', () => {
    expect(entryMac(key, entry)).toBe('98920cb9224d992428d32c7be7ddb39c35213b3c25c6ccda79c1ad7686a4167e');
    const later = { ...entry, version: 2, prevMac: 'ab'.repeat(32), votes: [{ ideaId: 2, opinion: 'no' }], rejected: [{ ideaId: 9, opinion: 'yes', by: 5 }] };
    expect(entryMac(key, later)).toBe('b2f1f9590cf3a2ae41f9f62bafd3c107d00910d200b297aceb32639ac51a2da0');
  });

  it('the migration mark is covered by the mac, and an entry without it keeps its receipt', () => {
    const marked = entryMac(key, { ...entry, migrated: true });
    expect(marked).not.toBe(entryMac(key, entry));
    expect(entryMac(key, { ...entry, migrated: undefined })).toBe('98920cb9224d992428d32c7be7ddb39c35213b3c25c6ccda79c1ad7686a4167e');
    expect(macIsValid(key, { ...entry, mac: marked })).toBe(false);
    expect(macIsValid(key, { ...entry, migrated: true, mac: marked })).toBe(true);
    expect(sealedOf(entryItemOf(sealEntry(key, { ...entry, migrated: true })))).toMatchObject({ migrated: true, mac: marked });
  });

  it('says which field of an entry is malformed', () => {
    expect(() => entryBytes({ ...entry, version: 0 })).toThrow('version must be >= 1');
    expect(() => entryBytes({ ...entry, prevMac: 'AB'.repeat(32) })).toThrow('prevMac must be a lowercase hex SHA-256 mac');
    expect(() => entryBytes({ ...entry, prevMac: `x${'a'.repeat(64)}` })).toThrow('prevMac must be');
    expect(() => entryBytes({ ...entry, prevMac: `${'a'.repeat(64)}0` })).toThrow('prevMac must be');
    expect(() => entryBytes({ ...entry, writtenAt: 'x2026-05-01T12:00:00.000Z' })).toThrow('writtenAt must be an ISO instant with milliseconds, UTC');
    expect(() => entryBytes({ ...entry, writtenAt: '2026-05-01T12:00:00.000Z0' })).toThrow('writtenAt must be');
    expect(entryBytes({ ...entry, siteId: 0 })).toBeInstanceOf(Buffer);
    const sealed = sealEntry(key, entry);
    expect(macIsValid(key, { ...sealed, mac: `${sealed.mac}0` })).toBe(false);
    expect(macIsValid(key, { ...sealed, mac: `0${sealed.mac}` })).toBe(false);
  });

  it('ids and the version are whole numbers, or the entry cannot be sealed', () => {
    expect(() => entryBytes({ ...entry, siteId: -1 })).toThrow('siteId must be a whole number');
    expect(() => entryBytes({ ...entry, userId: 1.5 })).toThrow('userId must be a whole number');
  });

  it('an entry stored as a table item comes back as it was sealed, its rejected votes with it, and none stored as absent', () => {
    const withRejected = sealEntry(key, { ...entry, rejected: [{ ideaId: 4, opinion: 'yes', by: 1 }, { ideaId: 5, opinion: 'no', by: null }] });
    const item = entryItemOf(withRejected);
    expect(item.votes).toEqual([[9, 'yes'], [2, 'no']]);
    expect(item.rejected).toEqual([[4, 'yes', 1], [5, 'no', null]]);
    expect(sealedOf(item)).toEqual(withRejected);
    expect(macIsValid(key, sealedOf(item))).toBe(true);
    const plain = sealEntry(key, entry);
    expect('rejected' in entryItemOf({ ...plain, rejected: [] })).toBe(false);
    expect(sealedOf(entryItemOf(plain))).toEqual(plain);
  });

  it('malformed entries cannot be sealed and never verify', () => {
    expect(() => entryBytes({ ...entry, version: 0 })).toThrow(RangeError);
    expect(() => entryBytes({ ...entry, prevMac: 'zz' })).toThrow(RangeError);
    expect(() => entryBytes({ ...entry, writtenAt: '2026-05-01T12:00:00Z' })).toThrow(RangeError);
    const sealed = sealEntry(key, entry);
    expect(macIsValid(key, sealed)).toBe(true);
    expect(macIsValid(key, { ...sealed, mac: sealed.mac.toUpperCase() })).toBe(false);
    expect(macIsValid(key, { ...sealed, version: -1 })).toBe(false);
  });

  it('a batch is ordered by receipt alone, whatever the time each entry was written', () => {
    const a = { writtenAt: '2026-05-01T12:00:00.000Z', mac: 'b'.repeat(64) };
    const b = { writtenAt: '2026-05-01T12:00:00.000Z', mac: 'c'.repeat(64) };
    const c = { writtenAt: '2026-05-01T11:59:59.999Z', mac: 'f'.repeat(64) };
    expect([c, b, a].sort(batchOrder)).toEqual([a, b, c]);
  });
});

describe('checkpoints and keys', () => {
  const keys = freshKeys();
  const head = { siteId: 3, id: 2, treeSize: 1042, root: 'ab'.repeat(32), cut: '2026-05-01T12:00:00.000Z', ballots: 998 };

  it('the signed text is a C2SP-style checkpoint: origin, size, base64 root, extension lines', () => {
    expect(checkpointText(head)).toBe(
      `participation-api/site/3/votes\n1042\n${Buffer.from(head.root, 'hex').toString('base64')}\ncheckpoint 2\ncut 2026-05-01T12:00:00.000Z\nballots 998\n`,
    );
  });

  it('a checkpoint of a log that holds every ballot ends with a `complete` line; one without says nothing either way', () => {
    expect(checkpointText({ ...head, complete: true })).toBe(`${checkpointText(head)}complete\n`);
    expect(checkpointText({ ...head, complete: false })).toBe(checkpointText(head));
  });

  it('the signed form: a copy without `complete` is checked in both forms, a copy that says it only in that form', () => {
    const published = publicKeyFromRaw(publishedKey(keys.publicKey).publicKey);
    const complete = signCheckpoint({ ...head, complete: true }, keys.signingKey);
    const open = signCheckpoint(head, keys.signingKey);
    expect(signedForm(complete, published)).toBe('complete');
    // As the published answers carry it: no field; the signature tells.
    const { complete: _said, ...answer } = complete;
    expect(signedForm(answer, published)).toBe('complete');
    expect(signedForm(open, published)).toBe('open');
    // A claim of completeness the key never signed, and an edited root in either form.
    expect(signedForm({ ...open, complete: true }, published)).toBeUndefined();
    expect(signedForm({ ...answer, root: 'cd'.repeat(32) }, published)).toBeUndefined();
    expect(checkpointSignatureIsValid(answer, published)).toBe(false);
  });

  it('an Ed25519 signature verifies with the published key and fails for any changed field or another key', () => {
    const signed = signCheckpoint(head, keys.signingKey);
    const published = publicKeyFromRaw(publishedKey(keys.publicKey).publicKey);
    expect(signed.keyId).toBe(keys.keyId);
    expect(checkpointSignatureIsValid(signed, published)).toBe(true);
    for (const changed of [{ siteId: 4 }, { id: 3 }, { treeSize: 1043 }, { root: 'cd'.repeat(32) }, { cut: '2026-05-01T12:00:00.001Z' }, { ballots: 999 }]) {
      expect(checkpointSignatureIsValid({ ...signed, ...changed }, published)).toBe(false);
    }
    expect(checkpointSignatureIsValid({ ...signed, signature: 'garbage' }, published)).toBe(false);
    const other = freshKeys();
    expect(checkpointSignatureIsValid(signed, other.publicKey)).toBe(false);
    expect(rawPublicKey(keys.signingKey)).toEqual(rawPublicKey(createPublicKey(keys.signingKey)));
    expect(publicKeyFromRaw(publishedKey(keys.publicKey).jwk.x).equals(keys.publicKey)).toBe(true);
  });

  it('only Ed25519 keys: another curve is refused, a raw key must be 32 bytes, and a key of another kind verifies nothing', () => {
    const x25519 = generateKeyPairSync('x25519');
    expect(() => rawPublicKey(x25519.publicKey)).toThrow('Not an Ed25519 key');
    expect(() => publicKeyFromRaw(Buffer.alloc(31, 1).toString('base64'))).toThrow('An Ed25519 public key is 32 bytes');
    const raw = rawPublicKey(keys.publicKey);
    expect(publicKeyFromRaw(raw.toString('base64')).equals(keys.publicKey)).toBe(true);
    expect(publicKeyFromRaw(raw.toString('base64url')).equals(keys.publicKey)).toBe(true);
    expect(checkpointSignatureIsValid(signCheckpoint(head, keys.signingKey), x25519.publicKey)).toBe(false);
  });

  it('publishes the current key first, then the next, then the retired ones latest first, each retired key with its retirement', () => {
    const [current, next, old, older] = [freshKeys(), freshKeys(), freshKeys(), freshKeys()];
    const published = publishedKeys(
      keySetOfKeys([
        { key: older.publicKey, status: 'retired', retiredAt: '2026-01-01T00:00:00.000Z' },
        { key: next.publicKey, status: 'next' },
        { key: old.publicKey, status: 'retired', retiredAt: '2026-03-01T00:00:00.000Z' },
        { key: current.publicKey, status: 'current' },
      ]),
    );
    expect(published.keyId).toBe(current.keyId);
    expect('status' in published).toBe(false);
    expect(published.keys.map((k) => [k.keyId, k.status, k.retiredAt])).toEqual([
      [current.keyId, 'current', undefined],
      [next.keyId, 'next', undefined],
      [old.keyId, 'retired', '2026-03-01T00:00:00.000Z'],
      [older.keyId, 'retired', '2026-01-01T00:00:00.000Z'],
    ]);
    expect('retiredAt' in published.keys[0]!).toBe(false);
    expect(publishedKey(current.publicKey).status).toBe('current');
  });

  it('keys in the secret store: dev defaults on the local stage only; short, malformed or dev values refused elsewhere', () => {
    expect(voteChainKey.parse('', { allowDevValues: true }).length).toBeGreaterThanOrEqual(32);
    expect(voteSigningKey.parse('', { allowDevValues: true }).current.length).toBe(32);
    expect(() => voteChainKey.parse('')).toThrow(/empty/);
    expect(() => voteChainKey.parse(randomBytes(16).toString('base64url'))).toThrow(/shorter than 32/);
    expect(() => voteChainKey.parse('not base64url!')).toThrow(/base64url/);
    expect(() => voteSigningKey.parse(randomBytes(31).toString('base64url'))).toThrow(/32 bytes/);
    expect(() => voteChainKey.parse(voteChainKey.local({}))).toThrow(/public dev default/);
    expect(() => voteSigningKey.parse(voteSigningKey.local({}))).toThrow(/public dev default/);
    expect(voteSigningKey.parse(voteSigningKey.generate()).current).toHaveLength(32);
    expect(voteChainKey.parse(voteChainKey.generate())).toHaveLength(32);
    // Two fresh pairs share nothing.
    expect(freshKeys().keyId).not.toBe(keys.keyId);
  });
});
