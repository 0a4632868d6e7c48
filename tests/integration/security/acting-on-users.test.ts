/**
 * Attack: a moderator changed an admin's e-mail (written to the auth server) and
 * could then log in as that admin. The rule (CONTRACT "Decided details, security", one function:
 * `access.user.actOn`): acting on a user (update of any field, delete, anonymize, previews included) is
 * for the user themself, a service token, or a caller whose role on this site is at least the
 * target's; another user's e-mail needs admin. Otherwise 403 with nothing changed here or on the auth
 * server (the stand-in records every request it gets: none may arrive).
 *
 * Decided beyond CONTRACT: another user's e-mail is their login on every site of the shared auth
 * server, so when the person is also a user of another site only they or a service token may change it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as deleteUser } from '../../../functions/users/delete.ts';
import { handler as willAnonymize } from '../../../functions/users/will-anonymize.ts';
import { handler as doAnonymize } from '../../../functions/users/do-anonymize.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { UserRecord } from '#schemas/user';
import type { Deleted } from '#tests/support/bodies';

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
  return auth.control.addUser({ email: `target${seq}-${Date.now()}@example.org`, firstName: 'Tara', lastName: `Target ${seq}` });
}

const get = (siteId: number, userId: number) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token: SERVICE_TOKEN });
const put = (siteId: number, userId: number, body: unknown, token: string) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body, token });
const del = (siteId: number, userId: number, token: string) => invoke<Deleted>(deleteUser, { method: 'DELETE', params: { siteId, userId }, token });
const anonymizeCall = (handler: typeof willAnonymize, siteId: number, userId: number, token: string) =>
  invoke(handler, { method: 'PUT', params: { siteId, userId }, token });

/** A site on the shared auth server with a linked person of `role` (logged in) and staff. */
async function siteWith(role: 'member' | 'moderator' | 'editor' | 'admin') {
  const site = await createLoginSite(auth);
  const who = person();
  const target = await loginUser(site.id, who.email);
  if (role !== 'member') expect((await put(site.id, target.id, { role }, SERVICE_TOKEN)).status).toBe(200);
  const staff = {
    moderator: await createUser(site.id, 'moderator'),
    editor: await createUser(site.id, 'editor'),
    admin: await createUser(site.id, 'admin'),
    member: await createUser(site.id, 'member'),
  };
  return { siteId: site.id, who, target, staff };
}

/** Runs the attack and proves that neither this site nor the auth server changed. */
async function refused(siteId: number, targetId: number, authId: number, attack: () => Promise<{ status: number; body: unknown }>) {
  const before = (await get(siteId, targetId)).body;
  const authBefore = structuredClone(auth.control.user(authId));
  const calls = auth.control.requests.length;
  const res = await attack();
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body).toMatchObject({ status: 403, error: 'Forbidden' });
  expect(auth.control.requests.slice(calls)).toEqual([]);
  expect(auth.control.user(authId)).toEqual(authBefore);
  expect((await get(siteId, targetId)).body).toEqual(before);
}

describe('nobody acts on a user above their own role', () => {
  it("a moderator may not change an admin's e-mail (the takeover), names, extraData or role", async () => {
    const w = await siteWith('admin');
    const mod = w.staff.moderator.token;
    for (const body of [
      { email: `attacker-${Date.now()}@example.org` },
      { firstName: 'Hacked' },
      { lastName: 'Hacked', extraData: { bio: 'hacked' } },
      { extraData: { bio: 'hacked' } },
      { nickName: 'hacked', listableByRole: 'admin' },
      { role: 'member' },
    ]) {
      await refused(w.siteId, w.target.id, w.who.id, () => put(w.siteId, w.target.id, body, mod));
    }
    // The admin's login is still theirs.
    expect(auth.control.userByEmail(w.who.email)?.id).toBe(w.who.id);
  });

  it('a moderator may not delete, preview-anonymize or anonymize an editor or admin', async () => {
    for (const role of ['editor', 'admin'] as const) {
      const w = await siteWith(role);
      const mod = w.staff.moderator.token;
      await refused(w.siteId, w.target.id, w.who.id, () => del(w.siteId, w.target.id, mod));
      await refused(w.siteId, w.target.id, w.who.id, () => anonymizeCall(willAnonymize, w.siteId, w.target.id, mod));
      await refused(w.siteId, w.target.id, w.who.id, () => anonymizeCall(doAnonymize, w.siteId, w.target.id, mod));
    }
  });

  it('an editor may not act on an admin; an admin may', async () => {
    const w = await siteWith('admin');
    await refused(w.siteId, w.target.id, w.who.id, () => put(w.siteId, w.target.id, { firstName: 'Nope' }, w.staff.editor.token));
    const ok = await put(w.siteId, w.target.id, { firstName: 'Fine' }, w.staff.admin.token);
    expect(ok.status).toBe(200);
    expect(auth.control.user(w.who.id)!.firstName).toBe('Fine');
  });

  it('a member may not act on another member at all', async () => {
    const w = await siteWith('member');
    await refused(w.siteId, w.target.id, w.who.id, () => put(w.siteId, w.target.id, { firstName: 'Nope' }, w.staff.member.token));
    await refused(w.siteId, w.target.id, w.who.id, () => del(w.siteId, w.target.id, w.staff.member.token));
  });

  it('a moderator may act on a member or another moderator (names), but not give a role above their own', async () => {
    const w = await siteWith('moderator');
    const res = await put(w.siteId, w.target.id, { firstName: 'Peer' }, w.staff.moderator.token);
    expect(res.status).toBe(200);
    await refused(w.siteId, w.target.id, w.who.id, () => put(w.siteId, w.target.id, { role: 'editor' }, w.staff.moderator.token));
  });
});

describe("another user's e-mail needs admin", () => {
  it('a moderator or editor may not change a member\'s e-mail; an admin may', async () => {
    const w = await siteWith('member');
    for (const staff of [w.staff.moderator, w.staff.editor] as TestUser[]) {
      await refused(w.siteId, w.target.id, w.who.id, () => put(w.siteId, w.target.id, { email: `new-${Date.now()}@example.org` }, staff.token));
    }
    const email = `by-admin-${Date.now()}@example.org`;
    const res = await put(w.siteId, w.target.id, { email }, w.staff.admin.token);
    expect(res.status).toBe(200);
    expect(auth.control.user(w.who.id)!.email).toBe(email);
  });

  it('sending the stored e-mail back is no change and needs no admin', async () => {
    const w = await siteWith('member');
    const res = await put(w.siteId, w.target.id, { email: w.who.email, firstName: 'Same' }, w.staff.moderator.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: w.who.email, firstName: 'Same' });
  });

  it('the user themself may change their own e-mail', async () => {
    const w = await siteWith('member');
    const email = `self-${Date.now()}@example.org`;
    expect((await put(w.siteId, w.target.id, { email }, w.target.token)).status).toBe(200);
    expect(auth.control.user(w.who.id)!.email).toBe(email);
  });

  it("an admin of P may not change the e-mail of a person who is also on Q (it is their login there); a service token may", async () => {
    const p = await siteWith('member');
    const q = await createLoginSite(auth);
    const onQ = await loginUser(q.id, p.who.email);
    expect((await put(q.id, onQ.id, { role: 'admin' }, SERVICE_TOKEN)).status).toBe(200);
    await refused(p.siteId, p.target.id, p.who.id, () => put(p.siteId, p.target.id, { email: `hijack-${Date.now()}@example.org` }, p.staff.admin.token));
    // The names live on the same auth-server user, so Q reads them too: P's admin may not change them
    // either (docs/security.md "Site to site"); sending back the stored name changes nothing and passes.
    await refused(p.siteId, p.target.id, p.who.id, () => put(p.siteId, p.target.id, { firstName: 'Corrected' }, p.staff.admin.token));
    const stored = (await get(p.siteId, p.target.id)).body;
    expect((await put(p.siteId, p.target.id, { firstName: stored.firstName }, p.staff.admin.token)).status).toBe(200);
    const email = `ops-${Date.now()}@example.org`;
    expect((await put(p.siteId, p.target.id, { email }, SERVICE_TOKEN)).status).toBe(200);
    expect(auth.control.user(p.who.id)!.email).toBe(email);
  });
});
