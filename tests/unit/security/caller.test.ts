/**
 * Who is calling (lib/auth/caller.ts), with the user store replaced by a double: the header rules, a
 * service token, a token of this site, and every way a token is refused (401), written as the attempts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const users = vi.hoisted(() => new Map<string, Record<string, unknown>>());
vi.mock('#lib/store/users/users', () => ({ getUser: vi.fn(async (siteId: number, userId: number) => users.get(`${siteId}/${userId}`)) }));

const { bearerToken, resolveCaller, NOBODY } = await import('#lib/auth/caller');
const { issueToken } = await import('#lib/auth/jwt');
const { devDefaults } = await import('#lib/config/env');

const SERVICE = devDefaults.serviceToken;
const member = { id: 5, siteId: 1, role: 'member' };

beforeEach(() => {
  users.clear();
  users.set('1/5', member);
});

const failure = async (p: Promise<unknown>) => p.then(() => 'ok', (e: { status?: number; message: string }) => `${e.status} ${e.message}`);

describe('bearerToken', () => {
  it('X-Authorization first, then Authorization; the scheme in any case; surrounding space allowed', () => {
    expect(bearerToken({ 'x-authorization': 'Bearer a', authorization: 'Bearer b' })).toBe('a');
    expect(bearerToken({ authorization: 'bEaReR  b  ' })).toBe('b');
    expect(bearerToken({})).toBeUndefined();
  });

  it('Authorization: Basic belongs to site Basic Auth (no token); a malformed X-Authorization is a 401', () => {
    expect(bearerToken({ authorization: 'Basic dXNlcjpwYXNz' })).toBeUndefined();
    expect(() => bearerToken({ 'x-authorization': 'Basic dXNlcjpwYXNz' })).toThrow('X-Authorization must be "Bearer <token>"');
    expect(() => bearerToken({ 'x-authorization': 'Bearer a b' })).toThrow('X-Authorization must be "Bearer <token>"');
    expect(bearerToken({ 'x-authorization': 'Bearer x', authorization: 'Basic y' })).toBe('x');
    // The scheme is the header's first word: a word that only ends in "bearer" is not it.
    expect(() => bearerToken({ 'x-authorization': 'NotBearer x' })).toThrow('X-Authorization must be "Bearer <token>"');
    expect(bearerToken({ authorization: 'NotBearer x' })).toBeUndefined();
  });
});

describe('resolveCaller', () => {
  it('no token: nobody; a service token: admin everywhere, and nobody in particular', async () => {
    expect(await resolveCaller({}, 1)).toBe(NOBODY);
    expect(await resolveCaller({ authorization: `Bearer ${SERVICE}` }, 1)).toEqual({ kind: 'service', role: 'admin', userId: undefined });
    expect(await resolveCaller({ authorization: `Bearer ${SERVICE}` }, undefined)).toMatchObject({ kind: 'service' });
  });

  it("a token of this site: the stored user's role (read on every request)", async () => {
    const token = await issueToken({ userId: 5, siteId: 1 });
    expect(await resolveCaller({ 'x-authorization': `Bearer ${token}` }, 1)).toEqual({ kind: 'user', role: 'member', userId: 5, siteId: 1, user: member });
    users.set('1/5', { ...member, role: 'moderator' });
    expect(await resolveCaller({ 'x-authorization': `Bearer ${token}` }, 1)).toMatchObject({ role: 'moderator' });
  });

  it('on a site-less route a token counts on its own site only', async () => {
    const token = await issueToken({ userId: 5, siteId: 1 });
    expect(await resolveCaller({ authorization: `Bearer ${token}` }, undefined)).toMatchObject({ kind: 'user', siteId: 1 });
  });

  it('401 for a token of another site, an expired, a forged or an oversized one', async () => {
    const other = await issueToken({ userId: 5, siteId: 2 });
    expect(await failure(resolveCaller({ authorization: `Bearer ${other}` }, 1))).toBe('401 Invalid or expired token');
    const expired = await issueToken({ userId: 5, siteId: 1 }, { ttlSeconds: -60 });
    expect(await failure(resolveCaller({ authorization: `Bearer ${expired}` }, 1))).toBe('401 Invalid or expired token');
    const forged = await issueToken({ userId: 5, siteId: 1 }, { key: { kid: 'local', key: new TextEncoder().encode('another-secret-that-is-long-enough-0123456789') } });
    expect(await failure(resolveCaller({ authorization: `Bearer ${forged}` }, 1))).toBe('401 Invalid or expired token');
    expect(await failure(resolveCaller({ authorization: `Bearer ${'a'.repeat(4097)}` }, 1))).toBe('401 Invalid token');
    expect(await failure(resolveCaller({ authorization: 'Bearer not.a.jwt' }, undefined))).toBe('401 Invalid or expired token');
    // 4,096 characters is the longest token read; a token that long is judged by its signature.
    expect(await failure(resolveCaller({ authorization: `Bearer ${'a'.repeat(4096)}` }, 1))).toBe('401 Invalid or expired token');
  });

  it("401 when the token's user is gone, anonymized, or holds no role of ours", async () => {
    const token = await issueToken({ userId: 5, siteId: 1 });
    const headers = { authorization: `Bearer ${token}` };
    const gone = '401 The user of this token no longer exists';
    users.delete('1/5');
    expect(await failure(resolveCaller(headers, 1))).toBe(gone);
    users.set('1/5', { ...member, anonymizedAt: '2026-01-01T00:00:00Z' });
    expect(await failure(resolveCaller(headers, 1))).toBe(gone);
    users.set('1/5', { ...member, role: 'superuser' });
    expect(await failure(resolveCaller(headers, 1))).toBe(gone);
  });
});
