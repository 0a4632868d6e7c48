/**
 * One client hammers the unauthenticated doors of a site (login start,
 * digest-login, newsletter signup, newsletter confirm). Before, 40 quick POSTs from one address got no
 * 429. Now: at most 100 a minute per address and site, counted in DynamoDB (so across Lambda
 * instances), 429 with `Retry-After`; `ignoreBruteForce` exempts addresses; no other endpoint pays.
 *
 * The window's clock is API Gateway's `requestContext.timeEpoch`, which the tests set (no waiting).
 */
import { describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { loginKeys } from '#lib/store/login/keys';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { BRUTE_FORCE_LIMIT } from '#lib/request/rate-limit';
import { handler as signupHandler } from '../../../functions/newsletter/create.ts';
import { handler as confirmHandler } from '../../../functions/newsletter/confirm.ts';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as digestHandler } from '../../../functions/oauth/digest-login.ts';
import { handler as logoutHandler } from '../../../functions/oauth/logout.ts';
import { handler as meHandler } from '../../../functions/oauth/me.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as getSite } from '../../../functions/sites/get.ts';
import type { SignupRecord } from '#schemas/newsletter';

/** 12:00:15 UTC on some day: 45 s before the window ends. */
const T0 = Date.UTC(2026, 10, 23, 12, 0, 15);
let ipSeq = 0;
/** A fresh client address per test (documentation range 203.0.113.0/24 and 198.51.100.0/24). */
const nextIp = () => `203.0.113.${++ipSeq}`;

const openSite = (config: Record<string, unknown> = {}) =>
  createSite({ allowedDomains: ['frontend.example.org'], newslettersignup: { isActive: true }, oauth: { default: { 'auth-server-url': 'https://auth.example.org', 'auth-client-id': 'c', 'auth-client-secret': 's' } }, ...config });

const confirm = (siteId: number, sourceIp: string, timeEpoch = T0) =>
  invoke<SignupRecord>(confirmHandler, { method: 'POST', params: { siteId }, body: { confirmToken: 'guessed-token-0000' }, sourceIp, timeEpoch });
const signup = (siteId: number, sourceIp: string, n: number, timeEpoch = T0) =>
  invoke<SignupRecord>(signupHandler, { method: 'POST', params: { siteId }, body: { email: `p${n}@example.org` }, sourceIp, timeEpoch });

describe('brute-force limit on the doors', () => {
  it(`101 quick signups from one address: the first ${BRUTE_FORCE_LIMIT} pass, the 101st is 429 with Retry-After`, async () => {
    const site = await openSite();
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < BRUTE_FORCE_LIMIT; i++) statuses.push((await signup(site.id, ip, i)).status);
    expect(statuses).toEqual(Array(BRUTE_FORCE_LIMIT).fill(201));
    const over = await signup(site.id, ip, 1000);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ status: 429, error: 'TooManyRequests', message: expect.any(String) });
    expect(over.headers['retry-after']).toBe('45');
    // A browser frontend may read it cross-origin.
    expect(over.headers['access-control-expose-headers']).toMatch(/\bRetry-After\b/);
  });

  it('counts across concurrent calls (as across Lambda instances): of 101 at once exactly one is 429', async () => {
    const site = await openSite();
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: BRUTE_FORCE_LIMIT + 1 }, () => confirm(site.id, ip)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(BRUTE_FORCE_LIMIT);
  });

  it('bad requests count too, and each door keeps its own count (a flood at one does not close the others)', async () => {
    const site = await openSite();
    const ip = nextIp();
    for (let i = 0; i < BRUTE_FORCE_LIMIT; i++) {
      const res = await invoke(confirmHandler, { method: 'POST', params: { siteId: site.id }, body: { nope: i }, sourceIp: ip, timeEpoch: T0 });
      expect(res.status).toBe(400);
    }
    const login = () =>
      invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl: 'https://frontend.example.org/' }, headers: { host: 'api.example.test' }, sourceIp: ip, timeEpoch: T0 });
    const digest = () => invoke(digestHandler, { params: { siteId: site.id }, query: { state: 'x', code: 'y' }, sourceIp: ip, timeEpoch: T0 });
    expect((await confirm(site.id, ip)).status).toBe(429);
    expect((await signup(site.id, ip, 1)).status).toBe(201);
    expect((await login()).status).not.toBe(429);
    expect((await digest()).status).not.toBe(429);
    // Every door has the same limit of its own.
    for (let i = 1; i < BRUTE_FORCE_LIMIT; i++) await digest();
    expect((await digest()).status).toBe(429);
    expect((await login()).status).not.toBe(429);
  });

  it('is per address and per site, and a new minute starts a new count', async () => {
    const site = await openSite();
    const other = await openSite();
    const ip = nextIp();
    for (let i = 0; i <= BRUTE_FORCE_LIMIT; i++) await confirm(site.id, ip);
    expect((await confirm(site.id, ip)).status).toBe(429);
    expect((await confirm(site.id, nextIp())).status).toBe(404);
    expect((await confirm(other.id, ip)).status).toBe(404);
    // 12:00:59.999 is still the same window; 12:01:00 is the next one.
    const lastMs = T0 + 44_999;
    const last = await confirm(site.id, ip, lastMs);
    expect(last.status).toBe(429);
    expect(last.headers['retry-after']).toBe('1');
    expect((await confirm(site.id, ip, T0 + 45_000)).status).toBe(404);
  });

  it('counts an IPv6 client by its /64 (one client holds a whole /64)', async () => {
    const site = await openSite();
    for (let i = 0; i < BRUTE_FORCE_LIMIT; i++) await confirm(site.id, `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect((await confirm(site.id, '2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await confirm(site.id, '2001:db8:1:3::1')).status).toBe(404);
  });

  it('exempts addresses listed in ignoreBruteForce (exact or CIDR), at no DynamoDB request', async () => {
    const site = await openSite({ ignoreBruteForce: ['198.51.100.7', '192.0.2.0/24', 'not an address'] });
    for (const ip of ['198.51.100.7', '192.0.2.200']) {
      for (let i = 0; i <= BRUTE_FORCE_LIMIT + 5; i++) expect((await confirm(site.id, ip)).status).toBe(404);
    }
    const exempt = await countRequests(() => confirm(site.id, '198.51.100.7'));
    const counted = await countRequests(() => confirm(site.id, nextIp()));
    expect(exempt.commands.UpdateCommand ?? 0).toBe(0);
    expect(counted.requests).toBe(exempt.requests + 1);
    // Another address is still limited.
    const ip = nextIp();
    for (let i = 0; i < BRUTE_FORCE_LIMIT; i++) await confirm(site.id, ip);
    expect((await confirm(site.id, ip)).status).toBe(429);
  });

  it('costs no request and writes no counter on any other endpoint', async () => {
    const site = await openSite();
    const ip = nextIp();
    const user = await createUser(site.id, 'member');
    const others = await countRequests(async () => [
      await invoke(getSite, { params: { siteId: site.id }, sourceIp: ip }),
      await invoke(listIdeas, { params: { siteId: site.id }, sourceIp: ip }),
      await invoke(meHandler, { params: { siteId: site.id }, token: user.token, sourceIp: ip }),
      await invoke(logoutHandler, { params: { siteId: site.id }, sourceIp: ip }),
    ]);
    expect(others.result.map((r) => r.status)).toEqual([200, 200, 200, 302]);
    expect(others.commands.UpdateCommand ?? 0).toBe(0);
    const counters = await doc.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': loginKeys.rateCounter(site.id, ip, 'newsletter-confirm', 0).PK } }),
    );
    expect(counters.Items).toEqual([]);
  });

  it('keeps the counter with a TTL that removes it after its window', async () => {
    const site = await openSite();
    const ip = nextIp();
    await confirm(site.id, ip);
    const windowStart = Math.floor(T0 / 1000) - 15;
    const counters = await doc.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': loginKeys.rateCounter(site.id, ip, 'newsletter-confirm', 0).PK } }),
    );
    expect(counters.Items).toEqual([{ ...loginKeys.rateCounter(site.id, ip, 'newsletter-confirm', windowStart), count: 1, ttl: windowStart + 120 }]);
  });
});
