/**
 * A login `state` is single-use and bound to the browser that started
 * the login. Before this, a state worked for ten minutes in any browser: it could be replayed, and an
 * attacker could make a victim's browser finish the ATTACKER's login (login CSRF), so that the victim
 * then acts on the site as the attacker's account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as digestHandler } from '../../../functions/oauth/digest-login.ts';
import { handler as listUsers } from '../../../functions/users/list.ts';
import { API_HOST, cookieJar, createLoginSite, FRONTEND, login, startTestAuthServer } from '../oauth/login-helpers.ts';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';
import type { UserRecord } from '#schemas/user';

const ATTACKER = 'attacker@example.org';
const VICTIM = 'victim@example.org';
let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer([
    { email: ATTACKER, firstName: 'Eve', lastName: 'Attacker' },
    { email: VICTIM, firstName: 'Vic', lastName: 'Tim' },
  ]);
});
afterAll(async () => {
  await auth.stop();
});

/** One browser's login start and the auth server's approval: what comes back to digest-login. */
async function approvedLogin(siteId: number, email: string) {
  const start = await invoke(loginHandler, { params: { siteId }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: API_HOST } });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.location!);
  authorize.searchParams.set('login_hint', email);
  const answer = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(answer.headers.get('location')!);
  return { start, query: Object.fromEntries(callback.searchParams), cookies: cookieJar(start.cookies) };
}

const userCount = async (siteId: number) => (await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId }, token: SERVICE_TOKEN })).body.records.length;

describe('the login cookie', () => {
  it('is set by the login start: a __Host- cookie (no other host can plant one), HttpOnly, SameSite=Lax, Secure, named per site, as long-lived as the state', async () => {
    const site = await createLoginSite(auth);
    const { start } = await approvedLogin(site.id, VICTIM);
    expect(start.cookies).toHaveLength(1);
    const [pair, ...attributes] = start.cookies[0]!.split('; ');
    expect(pair).toMatch(new RegExp(`^__Host-participation_login_nonce_${site.id}=[A-Za-z0-9_-]{43}$`));
    // __Host- requires Secure, Path=/ and no Domain attribute (RFC 6265bis 4.1.3.2).
    expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=600', 'Path=/', 'SameSite=Lax', 'Secure'].sort());
    // The state carries a hash of the nonce, never the nonce itself.
    const state = new URL(start.headers.location!).searchParams.get('state')!;
    expect(Buffer.from(state.split('.')[1]!, 'base64url').toString()).not.toContain(pair!.split('=')[1]);
  });

  it('is not Secure only on the local stage served over plain http (a browser would drop it)', async () => {
    const site = await createLoginSite(auth);
    const start = await invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: 'localhost:3000' } });
    expect(start.cookies[0]).not.toMatch(/Secure/);
    expect(start.cookies[0]).toMatch(new RegExp(`^participation_login_nonce=[A-Za-z0-9_-]{43}; Path=/oauth/site/${site.id}/; Max-Age=600; HttpOnly; SameSite=Lax$`));
  });

  it('is cleared by the digest-login that uses it', async () => {
    const site = await createLoginSite(auth);
    const { done } = await login(site.id, VICTIM);
    expect(done.status).toBe(302);
    expect(done.cookies).toEqual([`__Host-participation_login_nonce_${site.id}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure`]);
  });
});

describe('attacks on the state', () => {
  it('replay: the same callback again, from the same browser, is 400', async () => {
    const site = await createLoginSite(auth);
    const first = await login(site.id, VICTIM);
    expect(first.done.status).toBe(302);
    const replay = await invoke(digestHandler, { params: { siteId: site.id }, query: Object.fromEntries(first.callback.searchParams), cookies: first.cookies });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ status: 400, error: 'BadRequest', message: expect.stringMatching(/already used/) });
    expect(replay.headers.location).toBeUndefined();
  });

  it('replay: a cancelled login (error=access_denied) consumes its state too', async () => {
    const site = await createLoginSite(auth);
    const { query, cookies } = await approvedLogin(site.id, VICTIM);
    const cancelled = await invoke(digestHandler, { params: { siteId: site.id }, query: { state: query.state!, error: 'access_denied' }, cookies });
    expect(cancelled.status).toBe(302);
    const after = await invoke(digestHandler, { params: { siteId: site.id }, query, cookies });
    expect(after.status).toBe(400);
    expect(await userCount(site.id)).toBe(0);
  });

  it('concurrent replay: of eight simultaneous callbacks with one state exactly one logs in', async () => {
    const site = await createLoginSite(auth);
    const { query, cookies } = await approvedLogin(site.id, VICTIM);
    const answers = await Promise.all(Array.from({ length: 8 }, () => invoke(digestHandler, { params: { siteId: site.id }, query, cookies })));
    expect(answers.filter((a) => a.status === 302)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 302);
    expect(refused.map((a) => a.status)).toEqual(Array(7).fill(400));
    for (const a of refused) expect(errorOf(a.body).message).toMatch(/already used/);
    expect(await userCount(site.id)).toBe(1);
  });

  it("login CSRF: the attacker's callback opened in the victim's browser (no login cookie) is 400 and logs nobody in", async () => {
    const site = await createLoginSite(auth);
    const attacker = await approvedLogin(site.id, ATTACKER);
    const inVictimBrowser = await invoke(digestHandler, { params: { siteId: site.id }, query: attacker.query });
    expect(inVictimBrowser.status).toBe(400);
    expect(inVictimBrowser.headers.location).toBeUndefined();
    expect(await userCount(site.id)).toBe(0);
    // The attacker's own browser can still finish it: the state was not burnt by the failed attempt.
    const own = await invoke(digestHandler, { params: { siteId: site.id }, query: attacker.query, cookies: attacker.cookies });
    expect(own.status).toBe(302);
  });

  it("login CSRF: the attacker's callback in a victim browser that holds its own login cookie is 400", async () => {
    const site = await createLoginSite(auth);
    const victim = await approvedLogin(site.id, VICTIM);
    const attacker = await approvedLogin(site.id, ATTACKER);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: attacker.query, cookies: victim.cookies });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toMatch(/not started in this browser/);
    expect(await userCount(site.id)).toBe(0);
    // The victim's own login is unaffected.
    expect((await invoke(digestHandler, { params: { siteId: site.id }, query: victim.query, cookies: victim.cookies })).status).toBe(302);
  });

  it('a forged cookie value (the state is public, the nonce is not) is 400', async () => {
    const site = await createLoginSite(auth);
    const { query } = await approvedLogin(site.id, VICTIM);
    const nonceHash = JSON.parse(Buffer.from(query.state!.split('.')[1]!, 'base64url').toString()).nonceHash as string;
    for (const value of [nonceHash, '', 'x', query.state!]) {
      const res = await invoke(digestHandler, { params: { siteId: site.id }, query, cookies: [`__Host-participation_login_nonce_${site.id}=${value}`] });
      expect(res.status).toBe(400);
    }
    expect(await userCount(site.id)).toBe(0);
  });

  it('the state of another site, with the cookie of its browser, is 400', async () => {
    const site = await createLoginSite(auth);
    const other = await createLoginSite(auth);
    const foreign = await approvedLogin(other.id, VICTIM);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: foreign.query, cookies: foreign.cookies });
    expect(res.status).toBe(400);
    expect(await userCount(site.id)).toBe(0);
  });

  it('reads the cookie from a Cookie header too (a front door that does not split it out)', async () => {
    const site = await createLoginSite(auth);
    const { query, cookies } = await approvedLogin(site.id, VICTIM);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query, headers: { cookie: `other=1; ${cookies[0]}` } });
    expect(res.status).toBe(302);
  });
});
