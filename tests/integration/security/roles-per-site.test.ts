/**
 * Attack: roles leaking between sites through the one auth server they share. Two
 * sites P and Q log in through ONE auth-server stand-in with the SAME client, so anything the API
 * wrote to the auth-server user would come back to the other site on its next login. The rule
 * (CONTRACT "Decided details, security"): roles are per site and belong to the API; the API never
 * sends a role to an auth server; a userinfo role is used only when a login creates the site user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as createUserHandler } from '../../../functions/users/create.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { UserRecord } from '#schemas/user';
import type { SiteRecord } from '#schemas/site';

let auth: RunningAuthServer;
let seq = 0;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

function person(role?: string) {
  seq += 1;
  return auth.control.addUser({ email: `roles${seq}-${Date.now()}@example.org`, firstName: 'Robin', lastName: `Roles ${seq}`, ...(role ? { role } : {}) });
}

/** Two sites on the same auth server and the same OAuth client. */
async function twoSites() {
  const p = await createLoginSite(auth);
  const q = await createLoginSite(auth);
  return { p: p.id, q: q.id };
}

const setRole = (siteId: number, userId: number, role: string, token: string) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body: { role }, token });
const roleOn = async (siteId: number, token: string) => (await invoke<UserRecord>(me, { params: { siteId }, token })).body.role;
const manageSite = (siteId: number, token: string) =>
  invoke<SiteRecord>(updateSite, { method: 'PUT', params: { siteId }, body: { title: 'Taken over' }, token });

describe('a role granted on one site stays on that site', () => {
  it('admin on P, then a login on Q: still member on Q, and PUT /api/site/Q is 403', async () => {
    const { p, q } = await twoSites();
    const who = person();
    const onP = await loginUser(p, who.email);
    await loginUser(q, who.email);
    const adminOfP = await createUser(p, 'admin');

    const calls = auth.control.requests.length;
    expect((await setRole(p, onP.id, 'admin', adminOfP.token)).status).toBe(200);
    // Nothing about the role reached the auth server.
    expect(auth.control.requests.slice(calls)).toEqual([]);
    expect(auth.control.user(who.id)!.roles).toEqual({});

    const again = await loginUser(q, who.email);
    expect(await roleOn(q, again.token)).toBe('member');
    expect((await manageSite(q, again.token)).status).toBe(403);
    // And on P the grant holds.
    const onPAgain = await loginUser(p, who.email);
    expect(await roleOn(p, onPAgain.token)).toBe('admin');
    expect((await manageSite(p, onPAgain.token)).status).toBe(200);
  });

  it("a first login on Q after the grant on P makes a member, not an admin", async () => {
    const { p, q } = await twoSites();
    const who = person();
    const onP = await loginUser(p, who.email);
    expect((await setRole(p, onP.id, 'admin', SERVICE_TOKEN)).status).toBe(200);
    const onQ = await loginUser(q, who.email);
    expect(await roleOn(q, onQ.token)).toBe('member');
    expect((await manageSite(q, onQ.token)).status).toBe(403);
  });

  it('a user created with a role on P carries no role to the auth server, so Q makes a member', async () => {
    const { p, q } = await twoSites();
    const email = `made-admin-${Date.now()}@example.org`;
    const made = await invoke<UserRecord>(createUserHandler, { method: 'POST', params: { siteId: p }, token: SERVICE_TOKEN, body: { email, role: 'admin' } });
    expect(made.status).toBe(201);
    expect(made.body.role).toBe('admin');
    expect(auth.control.userByEmail(email)!.roles).toEqual({});
    const onQ = await loginUser(q, email);
    expect(await roleOn(q, onQ.token)).toBe('member');
    expect((await manageSite(q, onQ.token)).status).toBe(403);
  });
});

describe("a demotion on one site does not demote the other site's admin", () => {
  it("admin on Q, moderator on P; P demotes to member; Q's admin stays admin", async () => {
    const { p, q } = await twoSites();
    const who = person();
    const onQ = await loginUser(q, who.email);
    expect((await setRole(q, onQ.id, 'admin', SERVICE_TOKEN)).status).toBe(200);
    const onP = await loginUser(p, who.email);
    // Q's grant did not make them admin on P either.
    expect(await roleOn(p, onP.token)).toBe('member');
    const adminOfP = await createUser(p, 'admin');
    expect((await setRole(p, onP.id, 'moderator', adminOfP.token)).status).toBe(200);
    expect((await setRole(p, onP.id, 'member', adminOfP.token)).status).toBe(200);

    const againOnQ = await loginUser(q, who.email);
    expect(againOnQ.id).toBe(onQ.id);
    expect(await roleOn(q, againOnQ.token)).toBe('admin');
    expect((await manageSite(q, againOnQ.token)).status).toBe(200);
  });
});

describe("the site's stored role stands on every later login", () => {
  it('a userinfo role is used when the login creates the site user, and ignored after that', async () => {
    const { p } = await twoSites();
    const who = person();
    const first = await loginUser(p, who.email);
    expect(await roleOn(p, first.token)).toBe('member');
    // The auth server now claims admin (for every client): the site's stored member stands.
    auth.control.user(who.id)!.role = 'admin';
    const second = await loginUser(p, who.email);
    expect(second.id).toBe(first.id);
    expect(await roleOn(p, second.token)).toBe('member');
    expect((await manageSite(p, second.token)).status).toBe(403);

    // And the other way: a site's moderator is not demoted by an auth server saying member.
    const mod = person('member');
    const modLogin = await loginUser(p, mod.email);
    expect((await setRole(p, modLogin.id, 'moderator', SERVICE_TOKEN)).status).toBe(200);
    expect(await roleOn(p, (await loginUser(p, mod.email)).token)).toBe('moderator');
  });
});
