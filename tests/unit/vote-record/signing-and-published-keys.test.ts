/**
 * The vote record's keys as the code reads them from the secret store (locally: the dev defaults): the
 * published public key checks what the signing key signs, the published forms name the same key, and
 * each key is made once per stored value (the same object until the value changes).
 */
import { describe, expect, it } from 'vitest';
import { checkpointSignatureIsValid, keyIdOf, publicKeyFromRaw, signCheckpoint } from '#lib/vote-record/checkpoint';
import { publishedKey, voteChainKey, votePublicKey, voteSigningKey } from '#lib/vote-record/keys';

const head: Parameters<typeof signCheckpoint>[0] = { siteId: 1, id: 1, treeSize: 3, root: 'ab'.repeat(32), cut: '2026-01-01T00:00:00.000Z', ballots: 2 };

describe('the vote record keys from the secret store', () => {
  it('pair up: the published key checks what the signing key signs', () => {
    const signed = signCheckpoint(head, voteSigningKey());
    expect(checkpointSignatureIsValid(signed, votePublicKey())).toBe(true);
    expect(signed.keyId).toBe(keyIdOf(votePublicKey()));
  });

  it('are made once per stored value', () => {
    expect(voteSigningKey()).toBe(voteSigningKey());
    expect(votePublicKey()).toBe(votePublicKey());
    expect(voteChainKey()).toBe(voteChainKey());
    expect(voteChainKey().length).toBeGreaterThanOrEqual(32);
  });

  it('are published as Ed25519, raw and as a JWK, under the key id, both naming the public key', () => {
    const published = publishedKey();
    expect(published.algorithm).toBe('Ed25519');
    expect(published.keyId).toBe(keyIdOf(votePublicKey()));
    expect(published.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(published.jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(publicKeyFromRaw(Buffer.from(published.publicKey, 'base64').toString('base64url')).equals(votePublicKey())).toBe(true);
    expect(publicKeyFromRaw(published.jwk.x).equals(votePublicKey())).toBe(true);
  });
});
