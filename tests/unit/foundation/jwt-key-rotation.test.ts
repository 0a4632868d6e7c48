/**
 * API tokens across a token key rotation (lib/auth/jwt.ts): a token verifies with the key its `kid`
 * names among current, next and previous, whichever of them are set; no other key, no `kid`, and a
 * retired key's `kid` are refused. The token keys are set per test (the secret store's value).
 */
import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SigningKey } from '#lib/config/secret-values';

type TokenKeys = { current: SigningKey; next: SigningKey | null; previous: SigningKey | null };
const held = vi.hoisted(() => ({ tokenKeys: undefined as unknown }));
vi.mock('#lib/config/secrets', () => ({ secret: (name: string) => (name === 'tokenKeys' ? held.tokenKeys : undefined) }));

const { issueToken, verifyToken, JWT_ISSUER } = await import('#lib/auth/jwt');

const key = (kid: string): SigningKey => ({ kid, key: randomBytes(32) });
const [a, b, c] = [key('a'), key('b'), key('c')];
const use = (keys: TokenKeys) => void (held.tokenKeys = keys);
const signed = (claims: Record<string, unknown>, with_: SigningKey, header: { kid?: string } = { kid: with_.kid }) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...header }).setIssuer(JWT_ISSUER).setIssuedAt().setExpirationTime('10m').sign(with_.key);

beforeEach(() => use({ current: a, next: null, previous: null }));

describe('API tokens across a token key rotation', () => {
  it('are signed with the current key, or the one given, and name it in a JWT header', async () => {
    expect(decodeProtectedHeader(await issueToken({ userId: 1, siteId: 1 }))).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'a' });
    const token = await issueToken({ userId: 1, siteId: 1 }, { key: c });
    expect(decodeProtectedHeader(token).kid).toBe('c');
    expect(await verifyToken(token, 1)).toBeNull(); // c is none of this stage's keys
  });

  it('verify with the previous key while next is unset, and with next once prepared', async () => {
    use({ current: a, next: null, previous: b });
    expect(await verifyToken(await signed({ userId: 4, siteId: 2 }, b), 2)).toEqual({ userId: 4, siteId: 2 });
    use({ current: a, next: c, previous: b });
    expect(await verifyToken(await signed({ userId: 4, siteId: 2 }, c), 2)).toEqual({ userId: 4, siteId: 2 });
    expect(await verifyToken(await signed({ userId: 4, siteId: 2 }, a), 2)).toEqual({ userId: 4, siteId: 2 });
  });

  it('are refused once their key is retired, without a kid, or with a kid that names another key', async () => {
    use({ current: a, next: null, previous: b });
    const byB = await signed({ userId: 4, siteId: 2 }, b);
    use({ current: a, next: null, previous: null });
    expect(await verifyToken(byB, 2)).toBeNull();
    expect(await verifyToken(await signed({ userId: 4, siteId: 2 }, a, {}), 2)).toBeNull();
    expect(await verifyToken(await signed({ userId: 4, siteId: 2 }, b, { kid: 'a' }), 2)).toBeNull();
  });

  it('carry positive integer ids only', async () => {
    for (const userId of [0, -3]) expect(await verifyToken(await signed({ userId, siteId: 2 }, a), 2)).toBeNull();
    expect(await verifyToken(await signed({ userId: 1, siteId: 0 }, a), 0)).toBeNull();
    expect(await verifyToken(await signed({ userId: 1, siteId: 2 }, a), 2)).toEqual({ userId: 1, siteId: 2 });
  });
});
