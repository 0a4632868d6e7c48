import { describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { issueToken, verifyToken, JWT_ISSUER } from '#lib/auth/jwt';
import { bearerToken } from '#lib/auth/caller';
import { secret } from '#lib/config/secrets';

const sign = (claims: Record<string, unknown>, options: { secret?: Uint8Array; exp?: number; iss?: string; alg?: string } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', kid: secret('tokenKeys').current.kid })
    .setIssuer(options.iss ?? JWT_ISSUER)
    .setIssuedAt()
    .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(options.secret ?? secret('tokenKeys').current.key);

describe('API tokens', () => {
  it('accepts a token it issued, on its own site only', async () => {
    const token = await issueToken({ userId: 7, siteId: 3 });
    expect(await verifyToken(token, 3)).toEqual({ userId: 7, siteId: 3 });
    expect(await verifyToken(token, 4)).toBeNull();
    expect(await verifyToken(token, undefined)).toBeNull();
  });

  it('rejects an expired token, beyond the 30 s leeway', async () => {
    const expired = await sign({ userId: 1, siteId: 1 }, { exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await verifyToken(expired, 1)).toBeNull();
    const justExpired = await sign({ userId: 1, siteId: 1 }, { exp: Math.floor(Date.now() / 1000) - 5 });
    expect(await verifyToken(justExpired, 1)).toEqual({ userId: 1, siteId: 1 });
  });

  it('rejects a token signed with another secret', async () => {
    const token = await sign({ userId: 1, siteId: 1 }, { secret: new TextEncoder().encode('another-secret-that-is-32-bytes-long!!') });
    expect(await verifyToken(token, 1)).toBeNull();
  });

  it('rejects alg none', async () => {
    const token = new UnsecuredJWT({ userId: 1, siteId: 1 }).setIssuer(JWT_ISSUER).setIssuedAt().setExpirationTime('1h').encode();
    expect(await verifyToken(token, 1)).toBeNull();
  });

  it('rejects a tampered payload', async () => {
    const token = await issueToken({ userId: 7, siteId: 3 });
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ userId: 1, siteId: 3, iss: JWT_ISSUER, iat: 1, exp: 9999999999 })).toString('base64url');
    expect(await verifyToken(`${header}.${forged}.${signature}`, 3)).toBeNull();
  });

  it('rejects another issuer, a missing exp, and non-integer ids', async () => {
    expect(await verifyToken(await sign({ userId: 1, siteId: 1 }, { iss: 'someone-else' }), 1)).toBeNull();
    const noExp = await new SignJWT({ userId: 1, siteId: 1 }).setProtectedHeader({ alg: 'HS256', kid: secret('tokenKeys').current.kid }).setIssuer(JWT_ISSUER).setIssuedAt().sign(secret('tokenKeys').current.key);
    expect(await verifyToken(noExp, 1)).toBeNull();
    expect(await verifyToken(await sign({ userId: '1', siteId: 1 }), 1)).toBeNull();
    expect(await verifyToken(await sign({ userId: 1.5, siteId: 1 }), 1)).toBeNull();
  });

  it('rejects HS512 (HS256 only)', async () => {
    expect(await verifyToken(await sign({ userId: 1, siteId: 1 }, { alg: 'HS512' }), 1)).toBeNull();
  });

  it('rejects garbage without throwing', async () => {
    for (const junk of ['', 'a.b.c', 'x'.repeat(5000), '....', 'eyJ.eyJ.sig']) expect(await verifyToken(junk, 1)).toBeNull();
  });
});

describe('the bearer header', () => {
  it('reads X-Authorization with a case-insensitive scheme', () => {
    expect(bearerToken({ 'x-authorization': 'Bearer abc' })).toBe('abc');
    expect(bearerToken({ 'x-authorization': 'bearer abc' })).toBe('abc');
    expect(bearerToken({ 'x-authorization': 'BEARER abc' })).toBe('abc');
  });
  it('leaves Basic Authorization to site Basic Auth', () => {
    expect(bearerToken({ authorization: 'Basic dTpw' })).toBeUndefined();
    expect(bearerToken({ authorization: 'Basic dTpw', 'x-authorization': 'Bearer t' })).toBe('t');
  });
  it('rejects a malformed X-Authorization with 401', () => {
    expect(() => bearerToken({ 'x-authorization': 'Token abc' })).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => bearerToken({ 'x-authorization': 'Bearer' })).toThrow(expect.objectContaining({ status: 401 }));
  });
});
