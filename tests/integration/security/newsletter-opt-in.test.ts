/**
 * Attack: a member set their own e-mail to somebody else's address and signed that
 * address up for the newsletter: it came back `confirmed: true`, skipping the victim's consent. The
 * rule (CONTRACT "Decided details, security"): a signup is confirmed without its token only when
 * `newslettersignup.autoConfirm` is on. An e-mail set through the API proves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as signUpHandler } from '../../../functions/newsletter/create.ts';
import { handler as listHandler } from '../../../functions/newsletter/list.ts';
import { handler as confirmHandler } from '../../../functions/newsletter/confirm.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { SignupRecord } from '#schemas/newsletter';
import type { UserRecord } from '#schemas/user';
import type { ListEnvelope } from '#tests/support/bodies';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

const newsletterOn = { newslettersignup: { isActive: true } };
const signUp = (siteId: number, email: string, token?: string) =>
  invoke<SignupRecord>(signUpHandler, { method: 'POST', params: { siteId }, body: { email }, token });
const setOwnEmail = (siteId: number, userId: number, email: string, token: string) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body: { email }, token });
const signups = async (siteId: number) =>
  (await invoke<ListEnvelope<SignupRecord>>(listHandler, { params: { siteId }, token: SERVICE_TOKEN })).body.records;

describe('double opt-in', () => {
  it("a member who sets their e-mail to the victim's cannot sign the victim up confirmed", async () => {
    const site = await createSite(newsletterOn);
    const member = await createUser(site.id, 'member');
    const victim = `victim-${Date.now()}@example.org`;
    expect((await setOwnEmail(site.id, member.id, victim, member.token)).status).toBe(200);

    const res = await signUp(site.id, victim, member.token);
    expect(res.status).toBe(201);
    expect(res.body.confirmed).toBe(false);
    // Pending with a token only the victim's mailbox will receive; nothing confirmed is stored.
    const [stored] = await signups(site.id);
    expect(stored).toMatchObject({ email: victim, confirmed: false, confirmToken: expect.any(String) });
    expect((await invoke<SignupRecord>(confirmHandler, { method: 'POST', params: { siteId: site.id }, body: { confirmToken: stored!.confirmToken } })).body.confirmed).toBe(true);
  });

  it('the same on a site whose users live on an auth server (the e-mail written there too)', async () => {
    const site = await createLoginSite(auth, newsletterOn);
    const who = auth.control.addUser({ email: `member-${Date.now()}@example.org`, firstName: 'Mem' });
    const member = await loginUser(site.id, who.email);
    const victim = `victim2-${Date.now()}@example.org`;
    expect((await setOwnEmail(site.id, member.id, victim, member.token)).status).toBe(200);
    expect((await signUp(site.id, victim, member.token)).body.confirmed).toBe(false);
  });

  it('only autoConfirm confirms without the token', async () => {
    const site = await createSite({ newslettersignup: { isActive: true, autoConfirm: true } });
    expect((await signUp(site.id, `anyone-${Date.now()}@example.org`)).body.confirmed).toBe(true);
    const member = await createUser(site.id, 'member');
    expect((await signUp(site.id, `someone-${Date.now()}@example.org`, member.token)).body.confirmed).toBe(true);
  });
});
