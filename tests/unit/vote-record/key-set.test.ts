/**
 * The rules a verifier trusts a published key by (lib/vote-record/key-set.ts), written as the
 * checkpoints a leaked key would sign: a retired key past its retirement, and the key of a copy of the
 * single-key answer (from before key lists) past what the copy can vouch for.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { keyIdOf, rawPublicKey, signCheckpoint } from '#lib/vote-record/checkpoint';
import { keySetOf, signerOf, singleKeyCopy, type PublishedKey } from '#lib/vote-record/key-set';

const { privateKey: oldKey } = generateKeyPairSync('ed25519');
const { privateKey: newKey } = generateKeyPairSync('ed25519');
const copy = (key: KeyObject) => ({ keyId: keyIdOf(key), publicKey: rawPublicKey(key).toString('base64') });
const checkpoint = (key: KeyObject, cut: string) =>
  signCheckpoint({ siteId: 4, id: 1, treeSize: 3, root: 'cd'.repeat(32), cut, ballots: 3 }, key);
const accepts = (published: PublishedKey[], key: KeyObject, cut: string) => {
  const { keys } = keySetOf(published);
  return 'key' in signerOf(keys, checkpoint(key, cut));
};

describe('a retired key', () => {
  const retiredAt = '2030-03-01T09:05:00.000Z';
  const list: PublishedKey[] = [
    { ...copy(newKey), status: 'current' },
    { ...copy(oldKey), status: 'retired', retiredAt },
  ];

  it('signs nothing cut after its retirement, and keeps verifying what it signed before', () => {
    expect(accepts(list, oldKey, retiredAt)).toBe(true);
    expect(accepts(list, oldKey, '2030-03-01T09:05:00.001Z')).toBe(false);
    expect(accepts(list, newKey, '2031-01-01T00:00:00.000Z')).toBe(true);
  });

  it('is left out when it has no retirement time: it would be trusted for ever', () => {
    const { keys, problems } = keySetOf([{ ...copy(oldKey), status: 'retired' }]);
    expect(keys.size).toBe(0);
    expect(problems).toEqual([`the retired key ${keyIdOf(oldKey)} has no retirement time`]);
  });
});

describe('the key of a copy of the single-key answer', () => {
  const copiedAt = new Date('2030-01-10T08:00:00.000Z');
  const bound = new Date(copiedAt.getTime() + KEY_PUBLICATION_SECONDS * 1000).toISOString();

  it('vouches for checkpoints cut up to its time plus the key publication delay, and for no later one (a leaked retired key)', () => {
    const kept = [singleKeyCopy(copy(oldKey), copiedAt, KEY_PUBLICATION_SECONDS)];
    expect(accepts(kept, oldKey, '2029-06-01T00:00:00.000Z')).toBe(true);
    expect(accepts(kept, oldKey, bound)).toBe(true);
    // Years later the key may long be retired; the copy cannot say, so the checkpoint needs the key list.
    const late = signerOf(keySetOf(kept).keys, checkpoint(oldKey, '2032-01-01T00:00:00.000Z'));
    expect(late).toEqual({
      refused: `it is signed by key ${keyIdOf(oldKey)}, known here only from a single-key copy that vouches for it up to ${bound}, but cut later (2032-01-01T00:00:00.000Z): fetch the current key list`,
    });
  });

  it('vouches for nothing without a time: it is left out, naming the fix', () => {
    const { keys, problems } = keySetOf([copy(oldKey)]);
    expect(keys.size).toBe(0);
    expect(problems).toEqual([`the key ${keyIdOf(oldKey)} comes from a single-key copy that does not say how far it vouches for it (no time): fetch the key list`]);
  });

  it('is still refused under an id that is not its own', () => {
    const { keys, problems } = keySetOf([{ ...singleKeyCopy(copy(oldKey), copiedAt, KEY_PUBLICATION_SECONDS), keyId: keyIdOf(newKey) }]);
    expect(keys.size).toBe(0);
    expect(problems[0]).toContain(`listed as ${keyIdOf(newKey)}`);
  });
});
