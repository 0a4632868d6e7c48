/**
 * Users linked to the auth server (over real HTTP): the auth server is the source of truth, so changes
 * go there first and a failure there changes nothing here; site-specific extraData is kept apart per
 * site on the one auth-server user.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as listUsers } from '../../../functions/users/list.ts';
import { handler as createUserHandler } from '../../../functions/users/create.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as deleteUser } from '../../../functions/users/delete.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { UserRecord } from '#schemas/user';
import { errorOf, type Deleted, type ListEnvelope } from '#tests/support/bodies';

let auth: RunningAuthServer;
let seq = 0;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});
afterEach(() => {
  auth.control.failures = {};
});

/** A fresh auth-server person (unique e-mail per test). */
function person(fields: { extraData?: Record<string, unknown>; role?: string } = {}) {
  seq += 1;
  return auth.control.addUser({ email: `person${seq}-${Date.now()}@example.org`, firstName: 'Pat', lastName: `Person ${seq}`, ...fields });
}

const get = (siteId: number, userId: number, token = SERVICE_TOKEN) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token });
const put = (siteId: number, userId: number, body: unknown, token = SERVICE_TOKEN) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body, token });
const del = (siteId: number, userId: number, token = SERVICE_TOKEN) =>
  invoke<Deleted>(deleteUser, { method: 'DELETE', params: { siteId, userId }, token });

describe('the auth server is the source of truth', () => {
  it('sends updates to the auth server first, then caches what it answered', async () => {
    const site = await createLoginSite(auth);
    const p = person();
    const email = `re-${p.email}`;
    const { id, token } = await loginUser(site.id, p.email);
    const res = await put(site.id, id, { firstName: 'Renamed', email }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Renamed', email });
    expect(auth.control.user(p.id)).toMatchObject({ firstName: 'Renamed', email });
  });

  it('keeps a role change on this site only (nothing sent to the auth server), and the next login keeps it', async () => {
    const site = await createLoginSite(auth);
    const p = person();
    const { id } = await loginUser(site.id, p.email);
    const calls = auth.control.requests.length;
    expect((await put(site.id, id, { role: 'moderator' })).body.role).toBe('moderator');
    expect(auth.control.requests.slice(calls)).toEqual([]);
    expect(auth.control.user(p.id)!.roles).toEqual({});
    const again = await loginUser(site.id, p.email);
    expect(again.id).toBe(id);
    expect((await invoke<UserRecord>(me, { params: { siteId: site.id }, token: again.token })).body.role).toBe('moderator');
  });

  it.each([
    ['adminUpdate', { firstName: 'Never' }],
    ['adminGet', { extraData: { bio: 'never' } }],
    ['adminUpdate', { extraData: { bio: 'never' }, lastName: 'Never' }],
  ] as const)('answers 502 when %s fails and changes nothing locally or there', async (endpoint, body) => {
    const site = await createLoginSite(auth);
    const p = person();
    const { id, token } = await loginUser(site.id, p.email);
    const before = (await get(site.id, id)).body;
    const authBefore = structuredClone(auth.control.user(p.id));
    auth.control.failures[endpoint] = 500;
    const res = await put(site.id, id, body, token);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 502, error: 'BadGateway' });
    expect((await get(site.id, id)).body).toEqual(before);
    expect(auth.control.user(p.id)).toEqual(authBefore);
  });

  it('maps an e-mail taken on the auth server to 409', async () => {
    const site = await createLoginSite(auth);
    const p = person();
    const taken = person();
    const { id, token } = await loginUser(site.id, p.email);
    expect((await put(site.id, id, { email: taken.email }, token)).status).toBe(409);
    expect((await get(site.id, id)).body.email).toBe(p.email);
  });

  it('creates new users on the auth server and links them, so their login finds them', async () => {
    const site = await createLoginSite(auth);
    const res = await invoke<UserRecord>(createUserHandler, {
      method: 'POST',
      params: { siteId: site.id },
      token: SERVICE_TOKEN,
      body: { email: `made-${Date.now()}@example.org`, firstName: 'Made', role: 'editor', extraData: { bio: 'written here' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ role: 'editor', firstName: 'Made', extraData: { bio: 'written here' } });
    const onAuth = auth.control.userByEmail(res.body.email!)!;
    expect(res.body.externalUserId).toBe(String(onAuth.id));
    expect(onAuth.extraData).toEqual({ bio: [{ value: 'written here', siteId: site.id }] });
    // The role stays with the site: the auth server was never told one.
    expect(onAuth.roles).toEqual({});
    expect(onAuth.role).toBeUndefined();
    const login = await loginUser(site.id, res.body.email!);
    expect(login.id).toBe(res.body.id);
    expect((await invoke<UserRecord>(me, { params: { siteId: site.id }, token: login.token })).body.role).toBe('editor');
  });

  it('answers 409 for an e-mail the auth server knows, 502 when it fails; no local user either way', async () => {
    const site = await createLoginSite(auth);
    const known = person();
    const create = (email: string) =>
      invoke<UserRecord>(createUserHandler, { method: 'POST', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { email } });
    expect((await create(known.email)).status).toBe(409);
    auth.control.failures.adminCreate = 500;
    const email = `fails-${Date.now()}@example.org`;
    expect((await create(email)).status).toBe(502);
    expect(auth.control.userByEmail(email)).toBeUndefined();
    expect((await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, token: SERVICE_TOKEN })).body.records).toEqual([]);
  });

  it('deletes on the auth server first; a failure there is a 502 and the user stays', async () => {
    const site = await createLoginSite(auth);
    const p = person();
    const { id, token } = await loginUser(site.id, p.email);
    auth.control.failures.adminDelete = 500;
    expect((await del(site.id, id, token)).status).toBe(502);
    expect((await get(site.id, id)).status).toBe(200);
    expect((await invoke(me, { params: { siteId: site.id }, token })).status).toBe(200);
    expect(auth.control.user(p.id)).toBeDefined();
    auth.control.failures = {};
    expect((await del(site.id, id, token)).status).toBe(200);
    expect((await get(site.id, id)).status).toBe(404);
    expect(auth.control.user(p.id)).toBeUndefined();
  });

  it('keeps the auth-server user while another site still has them, and a new login makes a fresh site user', async () => {
    const siteA = await createLoginSite(auth);
    const siteB = await createLoginSite(auth);
    const p = person();
    const onA = await loginUser(siteA.id, p.email);
    await loginUser(siteB.id, p.email);
    const requests = auth.control.requests.length;
    expect((await del(siteA.id, onA.id)).status).toBe(200);
    expect(auth.control.requests.slice(requests).some((r) => r.method === 'DELETE')).toBe(false);
    expect(auth.control.user(p.id)).toBeDefined();
    const back = await loginUser(siteA.id, p.email);
    expect(back.id).not.toBe(onA.id);
  });

  it('answers 502 when the auth server the user is linked to is no longer configured', async () => {
    const site = await createLoginSite(auth);
    const p = person();
    const { id } = await loginUser(site.id, p.email);
    // The site's config loses its auth server; the user stays linked to it.
    await invoke(updateSite, { method: 'PUT', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { config: { allowedDomains: ['frontend.example.org'] } } });
    const res = await put(site.id, id, { firstName: 'Lost' });
    expect(res.status).toBe(502);
    expect(errorOf(res.body).message).toMatch(/no longer configured/);
  });
});

describe('site-specific extraData', () => {
  it('keeps bio per site on the one auth-server user; the plain value is the fallback', async () => {
    const siteA = await createLoginSite(auth);
    const siteB = await createLoginSite(auth);
    const p = person({ extraData: { bio: 'generic bio', city: 'Delft' } });
    const a = await loginUser(siteA.id, p.email);
    const b = await loginUser(siteB.id, p.email);
    expect((await get(siteB.id, b.id)).body.extraData).toEqual({ bio: 'generic bio', city: 'Delft' });

    const written = await put(siteA.id, a.id, { extraData: { bio: 'bio for A' } }, a.token);
    expect(written.status).toBe(200);
    expect(written.body.extraData).toEqual({ bio: 'bio for A', city: 'Delft' });
    expect(auth.control.user(p.id)!.extraData.bio).toEqual(['generic bio', { value: 'bio for A', siteId: siteA.id }]);

    // B still reads the fallback, and its own write keeps A's entry.
    expect((await get(siteB.id, b.id)).body.extraData.bio).toBe('generic bio');
    expect((await put(siteB.id, b.id, { extraData: { bio: 'bio for B' } }, b.token)).body.extraData.bio).toBe('bio for B');
    expect(auth.control.user(p.id)!.extraData.bio).toEqual([
      'generic bio',
      { value: 'bio for A', siteId: siteA.id },
      { value: 'bio for B', siteId: siteB.id },
    ]);
    expect((await get(siteA.id, a.id)).body.extraData.bio).toBe('bio for A');

    // A plain field is one value for all sites.
    await put(siteA.id, a.id, { extraData: { city: 'Gouda' } }, a.token);
    expect((await loginUser(siteB.id, p.email)).id).toBe(b.id);
    expect((await get(siteB.id, b.id)).body.extraData.city).toBe('Gouda');

    // null removes only this site's entry.
    await put(siteA.id, a.id, { extraData: { bio: null } }, a.token);
    expect(auth.control.user(p.id)!.extraData.bio).toEqual(['generic bio', { value: 'bio for B', siteId: siteB.id }]);
    expect((await get(siteA.id, a.id)).body.extraData.bio).toBe('generic bio');
  });

  it.each([['sitespecific'], ['site-specific']])('makes more fields site-specific with the %s option', async (option) => {
    const config = { users: { extraData: { motto: { type: 'string', [option]: true } } } } as never;
    const siteA = await createLoginSite(auth, config);
    const siteB = await createLoginSite(auth, config);
    const plain = await createLoginSite(auth);
    const p = person({ extraData: { motto: 'carpe diem' } });
    const a = await loginUser(siteA.id, p.email);
    const b = await loginUser(siteB.id, p.email);
    await put(siteA.id, a.id, { extraData: { motto: 'only A' } }, a.token);
    expect(auth.control.user(p.id)!.extraData.motto).toEqual(['carpe diem', { value: 'only A', siteId: siteA.id }]);
    expect((await get(siteB.id, b.id)).body.extraData.motto).toBe('carpe diem');
    expect((await get(siteA.id, a.id)).body.extraData.motto).toBe('only A');
    // On a site where motto is not site-specific, the plain fallback is shown, never A's entry.
    const c = await loginUser(plain.id, p.email);
    expect((await get(plain.id, c.id)).body.extraData.motto).toBe('carpe diem');
  });

  it('switches bio off as site-specific with sitespecific: false', async () => {
    const site = await createLoginSite(auth, { users: { extraData: { bio: { sitespecific: false } } } } as never);
    const p = person();
    const u = await loginUser(site.id, p.email);
    await put(site.id, u.id, { extraData: { bio: 'for everybody' } }, u.token);
    expect(auth.control.user(p.id)!.extraData.bio).toBe('for everybody');
  });

  it('stores nickName and the other record fields as this site entries on the auth server', async () => {
    const siteA = await createLoginSite(auth, { users: { allowUseOfNicknames: true } });
    const siteB = await createLoginSite(auth, { users: { allowUseOfNicknames: true } });
    const p = person({ extraData: { nickName: 'Generic' } });
    const a = await loginUser(siteA.id, p.email);
    const b = await loginUser(siteB.id, p.email);
    const res = await put(siteA.id, a.id, { nickName: 'Ace', listableByRole: 'moderator', signedUpForNewsletter: true }, a.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nickName: 'Ace', displayName: 'Ace', listableByRole: 'moderator', signedUpForNewsletter: true });
    expect(res.body.extraData).toEqual({});
    expect(auth.control.user(p.id)!.extraData).toEqual({
      nickName: ['Generic', { value: 'Ace', siteId: siteA.id }],
      listableByRole: [{ value: 'moderator', siteId: siteA.id }],
      signedUpForNewsletter: [{ value: true, siteId: siteA.id }],
    });
    const onB = (await get(siteB.id, b.id)).body;
    expect(onB).toMatchObject({ nickName: 'Generic', listableByRole: null, signedUpForNewsletter: null });
  });
});

describe('users not linked to an auth server on a linked site', () => {
  it('are changed locally only', async () => {
    const site = await createLoginSite(auth);
    const local = await createUser(site.id);
    const requests = auth.control.requests.length;
    expect((await put(site.id, local.id, { firstName: 'Local' }, local.token)).body.firstName).toBe('Local');
    expect((await del(site.id, local.id, local.token)).status).toBe(200);
    expect(auth.control.requests.length).toBe(requests);
  });
});
