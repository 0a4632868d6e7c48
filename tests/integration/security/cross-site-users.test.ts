/**
 * One site reaching another through the person they share. Two
 * sites P and Q log in through ONE auth-server stand-in with the same client (an OpenStad deployment:
 * one openstad-auth for every site). Each test is the attack, asserting the safe outcome. The rules:
 * `access.user.actOn` (shared fields of a shared person), lib/users/site-specific.ts (another site's
 * entries are neither written nor read), `access.seesClosedSiteActivity` (closed sites in activity).
 * docs/security.md "Site to site".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { putIdea } from '#tests/support/ideas-fixture';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as activity } from '../../../functions/users/activity.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { createLoginSite, loginUser, oauthConfig, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { UserRecord } from '#schemas/user';
import type { ActivityResponse } from '#schemas/user-activity';

let auth: RunningAuthServer;
let seq = 0;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

function person() {
  seq += 1;
  return auth.control.addUser({ email: `red${seq}-${Date.now()}@example.org`, firstName: 'Alice', lastName: `Shared ${seq}` });
}

const put = (siteId: number, userId: number, body: unknown, token: string) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body, token });
const get = (siteId: number, userId: number, token: string) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token });
const meOn = async (siteId: number, token: string) => (await invoke<UserRecord>(me, { params: { siteId }, token })).body;

describe('P staff write the shared person’s data on Q', () => {
  it("P's moderator renames a member who is also on Q: Q's record keeps the person's name", async () => {
    const p = await createLoginSite(auth);
    const q = await createLoginSite(auth);
    const who = person();
    const onP = await loginUser(p.id, who.email);
    await loginUser(q.id, who.email);
    const modOfP = await createUser(p.id, 'moderator');

    const res = await put(p.id, onP.id, { firstName: 'Hacked', lastName: 'ByP' }, modOfP.token);
    // The person logs in on Q again (the cache of Q refreshes from the auth server).
    const onQ = await loginUser(q.id, who.email);
    const qRecord = await meOn(q.id, onQ.token);
    // Safe: either P's staff may not change a shared identity's names (like its e-mail), or Q is untouched.
    expect(res.status === 403 || qRecord.firstName === 'Alice', `PUT ${res.status}, Q firstName ${qRecord.firstName}`).toBe(true);
  });

  it("a field Q keeps site-specific is overwritten for Q by P's moderator (P does not declare it site-specific)", async () => {
    const q = await createLoginSite(auth, { users: { extraData: { phone: { 'site-specific': true } } } });
    const p = await createLoginSite(auth);
    const who = person();
    const onQ = await loginUser(q.id, who.email);
    expect((await put(q.id, onQ.id, { extraData: { phone: 'Q-only 0612345678' } }, onQ.token)).status).toBe(200);
    const onP = await loginUser(p.id, who.email);
    const modOfP = await createUser(p.id, 'moderator');

    // On P `phone` is shared (stored plainly on the one auth-server user): P's staff may not change it
    // for a person who is also on Q (access.user.actOn) ...
    expect((await put(p.id, onP.id, { extraData: { phone: 'set on P' } }, modOfP.token)).status).toBe(403);
    // ... and when the person themself writes it on P, that sets the plain fallback and keeps Q's entry.
    const put2 = await put(p.id, onP.id, { extraData: { phone: 'set on P' } }, onP.token);
    expect(put2.status).toBe(200);
    expect(put2.body.extraData.phone).toBe('set on P');
    const again = await loginUser(q.id, who.email);
    // Q's own entry wins over any plain value (spec "extraData of users"): P may set the fallback, not Q's value.
    expect((await meOn(q.id, again.token)).extraData.phone).toBe('Q-only 0612345678');
  });
});

describe('P reads what Q keeps to itself', () => {
  it("Q's site-specific extraData value is not shown on P (to P's moderator, or to anyone when details are public)", async () => {
    const q = await createLoginSite(auth, { users: { extraData: { phone: { 'site-specific': true } } } });
    const p = await createLoginSite(auth);
    const who = person();
    const onQ = await loginUser(q.id, who.email);
    expect((await put(q.id, onQ.id, { extraData: { phone: 'Q-secret 0687654321' } }, onQ.token)).status).toBe(200);
    const onP = await loginUser(p.id, who.email);
    // The person makes their details public on P (their own choice about P).
    expect((await put(p.id, onP.id, { detailsViewableByRole: 'all' }, onP.token)).status).toBe(200);
    const modOfP = await createUser(p.id, 'moderator');

    const byMod = await get(p.id, onP.id, modOfP.token);
    const byAnyone = await invoke<UserRecord>(getUser, { params: { siteId: p.id, userId: onP.id } });
    expect(byMod.status).toBe(200);
    expect(byAnyone.status).toBe(200);
    // Anonymous first: the public leak is the worse one.
    expect(JSON.stringify(byAnyone.body)).not.toContain('Q-secret');
    expect(JSON.stringify(byMod.body)).not.toContain('Q-secret');
  });

  it("P's admin cannot read Q's `bio` of the person by declaring bio not site-specific on P", async () => {
    const q = await createLoginSite(auth);
    const p = await createLoginSite(auth);
    const who = person();
    const onQ = await loginUser(q.id, who.email);
    expect((await put(q.id, onQ.id, { extraData: { bio: 'Q-bio secret' } }, onQ.token)).status).toBe(200);
    const onP = await loginUser(p.id, who.email);
    const adminOfP = await createUser(p.id, 'admin');
    const config = { allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(auth.url) }, users: { extraData: { bio: { 'site-specific': false } } } };
    expect((await invoke(updateSite, { method: 'PUT', params: { siteId: p.id }, body: { config }, token: adminOfP.token })).status).toBe(200);
    const read = await get(p.id, onP.id, adminOfP.token);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('Q-bio secret');
  });

  it("P's moderator reading the person's activity sees nothing of a Basic-Auth (closed) site Q", async () => {
    const q = await createLoginSite(auth);
    const p = await createLoginSite(auth);
    const who = person();
    const onQ = await loginUser(q.id, who.email);
    const onP = await loginUser(p.id, who.email);
    const idea = await putIdea(q.id, { userId: onQ.id, fields: { title: 'Closed-site idea' } });
    const closed = {
      allowedDomains: ['frontend.example.org'],
      oauth: { default: oauthConfig(auth.url) },
      basicAuth: { active: true, user: 'q', password: 'q-password' },
    };
    expect((await invoke(updateSite, { method: 'PUT', params: { siteId: q.id }, body: { config: closed }, token: SERVICE_TOKEN, headers: { authorization: `Basic ${Buffer.from('q:q-password').toString('base64')}` } })).status).toBe(200);
    const modOfP = await createUser(p.id, 'moderator');

    const res = await invoke<ActivityResponse>(activity, { params: { siteId: p.id, userId: onP.id }, token: modOfP.token });
    expect(res.status).toBe(200);
    expect(res.body.ideas.map((i: { id: number }) => i.id)).not.toContain(idea.id);
    expect(res.body.sites.map((s: { id: number }) => s.id)).not.toContain(q.id);
    // The person logged in on P has not given Q's Basic Auth either; a service token sees Q.
    const bySelf = await invoke<ActivityResponse>(activity, { params: { siteId: p.id, userId: onP.id }, token: onP.token });
    expect(bySelf.body.sites.map((s: { id: number }) => s.id)).not.toContain(q.id);
    const byService = await invoke<ActivityResponse>(activity, { params: { siteId: p.id, userId: onP.id }, token: SERVICE_TOKEN });
    expect(byService.body.ideas.map((i: { id: number }) => i.id)).toContain(idea.id);
  });
});
