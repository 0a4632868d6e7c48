/**
 * Bearer tokens that must never be accepted (CONTRACT "Identity and roles": HS256 only, our secret,
 * `iss` participation-api, `exp` required with at most 30 s leeway, valid only on its own site, for a
 * user that exists), and X-Authorization values that are not a bearer token at all. Each is labelled
 * so a failure names the forgery.
 */
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { issueToken, JWT_ISSUER } from '#lib/auth/jwt';
import { signState } from '#lib/oauth/state';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { removeUser } from '#tests/support/hostile/store-helpers';
import type { SiteWorld } from '#tests/support/hostile/world';
import { tamperMiddle } from '#tests/support/tamper';

export interface LabelledValue {
  label: string;
  value: string;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const secret = () => new TextEncoder().encode(process.env.JWT_SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** HS256 by hand, for headers jose refuses to write (`crit` with an unknown extension). */
function handSigned(header: Record<string, unknown>, claims: Record<string, unknown>): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac('sha256', secret()).update(input).digest('base64url')}`;
}

function sign(claims: Record<string, unknown>, options: { alg?: string; key?: Uint8Array; header?: Record<string, unknown> } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT', ...options.header });
  return jwt.sign(options.key ?? secret());
}

const claimsFor = (userId: number, siteId: number) => ({
  userId,
  siteId,
  iss: JWT_ISSUER,
  iat: now(),
  exp: now() + 3600,
});

/**
 * Tokens that look like they might let someone in as a user of `w`'s site (mostly its admin), each
 * broken in one way. `other` is a second site. The deleted-user token is made here (its user is
 * created in `w` and removed again before anything snapshots the site).
 */
export async function forgedTokens(w: SiteWorld, other: SiteWorld): Promise<LabelledValue[]> {
  const admin = claimsFor(w.admin.id, w.siteId);
  const valid = await issueToken({ userId: w.member.id, siteId: w.siteId });
  const [header, payload, signature] = valid.split('.') as [string, string, string];
  const gone = await createUser(w.siteId, 'admin');
  await removeUser(w.siteId, gone.id);

  return [
    { label: 'alg none', value: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(admin)}.` },
    { label: 'alg none with a signature', value: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(admin)}.${signature}` },
    { label: 'wrong secret', value: await sign(admin, { key: new TextEncoder().encode('not-the-secret-but-long-enough-0123456789') }) },
    { label: 'empty secret lookalike', value: await sign(admin, { key: new TextEncoder().encode(' ') }) },
    { label: 'tampered payload (member -> admin)', value: `${header}.${b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), userId: w.admin.id })}.${signature}` },
    { label: 'tampered header (HS256 -> HS512)', value: `${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}` },
    { label: 'signature of another token', value: `${header}.${b64(admin)}.${signature}` },
    { label: 'signature cut off', value: `${header}.${payload}.` },
    { label: 'signature flipped', value: `${header}.${payload}.${tamperMiddle(signature)}` },
    { label: 'expired an hour ago', value: await sign({ ...admin, iat: now() - 7200, exp: now() - 3600 }) },
    { label: 'expired beyond the 30 s leeway', value: await sign({ ...admin, iat: now() - 600, exp: now() - 60 }) },
    { label: 'no exp', value: await sign({ userId: w.admin.id, siteId: w.siteId, iss: JWT_ISSUER, iat: now() }) },
    { label: 'no iat', value: await sign({ userId: w.admin.id, siteId: w.siteId, iss: JWT_ISSUER, exp: now() + 3600 }) },
    { label: 'no iss', value: await sign({ userId: w.admin.id, siteId: w.siteId, iat: now(), exp: now() + 3600 }) },
    { label: 'wrong iss', value: await sign({ ...admin, iss: 'someone-else' }) },
    { label: 'HS512 with our secret', value: await sign(admin, { alg: 'HS512' }) },
    { label: 'HS384 with our secret', value: await sign(admin, { alg: 'HS384' }) },
    { label: 'userId as a string', value: await sign({ ...admin, userId: String(w.admin.id) }) },
    { label: 'userId 0', value: await sign({ ...admin, userId: 0 }) },
    { label: 'userId negative', value: await sign({ ...admin, userId: -w.admin.id }) },
    { label: 'userId fractional', value: await sign({ ...admin, userId: w.admin.id + 0.5 }) },
    { label: 'userId huge', value: await sign({ ...admin, userId: 1e300 }) },
    { label: 'userId of nobody', value: await sign({ ...admin, userId: 999_999_999_999 }) },
    { label: 'userId of a deleted user', value: await issueToken({ userId: gone.id, siteId: w.siteId }) },
    { label: 'siteId as a string', value: await sign({ ...admin, siteId: String(w.siteId) }) },
    { label: 'siteId missing', value: await sign({ userId: w.admin.id, iss: JWT_ISSUER, iat: now(), exp: now() + 3600 }) },
    { label: "another site's token", value: other.admin.token },
    { label: "another site's user claiming this site", value: await issueToken({ userId: other.admin.id, siteId: w.siteId }) },
    { label: "this site's admin claiming another site", value: await issueToken({ userId: w.admin.id, siteId: other.siteId }) },
    { label: 'crit header', value: handSigned({ alg: 'HS256', typ: 'JWT', crit: ['x-hostile'], 'x-hostile': 1 }, admin) },
    { label: 'jku header', value: await sign({ ...admin }, { key: new TextEncoder().encode('attacker-key-attacker-key-0123456789'), header: { jku: 'https://evil.example/jwks' } }) },
    { label: 'a login state', value: await signState({ siteId: w.siteId, redirectUrl: 'https://frontend.example.org/', oauth: 'default', callback: 'https://api/cb' }) },
    { label: 'a newsletter confirm token', value: w.confirmToken },
    { label: 'service token with a suffix', value: `${SERVICE_TOKEN}x` },
    { label: 'service token truncated', value: SERVICE_TOKEN.slice(0, -1) },
    { label: 'service token upper-cased', value: SERVICE_TOKEN.toUpperCase() },
    { label: 'two segments', value: `${header}.${payload}` },
    { label: 'five segments', value: `${header}.${payload}.${signature}.${signature}.${signature}` },
    { label: 'empty segments', value: '..' },
    { label: 'header not JSON', value: `${Buffer.from('{nope', 'utf8').toString('base64url')}.${payload}.${signature}` },
    { label: 'payload not JSON', value: `${header}.${Buffer.from('[1,2', 'utf8').toString('base64url')}.${signature}` },
    { label: 'payload an array', value: await new SignJWT({} as never).setProtectedHeader({ alg: 'HS256' }).sign(secret()).then((t) => `${t.split('.')[0]}.${b64([1, 2])}.${t.split('.')[2]}`) },
    { label: 'non-base64 characters', value: `${header}.${payload}.${signature}!` },
    { label: 'unicode', value: 'ťøķęñ.ťøķęñ.ťøķęñ' },
    { label: 'longer than 4096 characters', value: `${header}.${payload}.${'A'.repeat(5000)}` },
    { label: 'garbage', value: 'deadbeef' },
  ];
}

/** X-Authorization values that are not `Bearer <token>`: a 401 whatever the route. */
export const malformedAuthorizationHeaders: LabelledValue[] = [
  { label: 'empty', value: '' },
  { label: 'scheme only', value: 'Bearer' },
  { label: 'scheme and space', value: 'Bearer ' },
  { label: 'two tokens', value: 'Bearer abc def' },
  { label: 'Basic scheme', value: 'Basic dXNlcjpwYXNz' },
  { label: 'Token scheme', value: `Token ${SERVICE_TOKEN}` },
  { label: 'no scheme', value: SERVICE_TOKEN },
  { label: 'scheme glued', value: `Bearer:${SERVICE_TOKEN}` },
  { label: 'control characters', value: 'Bearer abc\u0000def' },
  { label: 'newline injection', value: `Bearer x\r\nX-Authorization: Bearer ${SERVICE_TOKEN}` },
  { label: 'unicode scheme', value: 'Вearer abc' },
  { label: 'very long', value: `Bearer ${'x'.repeat(20_000)}` },
];
