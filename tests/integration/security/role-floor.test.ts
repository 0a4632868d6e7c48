/**
 * Role escalation by re-creation. A site demotes its admin to member; the
 * person deletes (or anonymizes) themself on the site and logs in again, and the login that creates the
 * fresh site user would adopt the auth server's `admin` again. The role floor (docs/login.md) keeps
 * the lowest role the site gave. Each test is the attack, asserting the SAFE outcome.
 */
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { dynamo, TABLE } from '#lib/store/db/client';
import { roleFloorKey } from '#lib/store/users/role-floor';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as deleteUser } from '../../../functions/users/delete.ts';
import { handler as doAnonymize } from '../../../functions/users/do-anonymize.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { UserRecord } from '#schemas/user';

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
  return auth.control.addUser({ email: `floor${seq}-${Date.now()}@example.org`, firstName: 'Eve', lastName: `Escalate ${seq}`, ...(role ? { role } : {}) });
}

const put = (siteId: number, userId: number, body: unknown, token: string) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body, token });
const roleOn = async (siteId: number, token: string) => (await invoke<UserRecord>(me, { params: { siteId }, token })).body.role;

describe("a site's demotion cannot be undone by the demoted user", () => {
  // The auth server still says `admin` (openstad-auth keeps a role per client; an earlier version of the API
  // wrote roles there, so every earlier grant is still on it).
  async function demotedAdmin() {
    const p = await createLoginSite(auth);
    const q = await createLoginSite(auth);
    const who = person('admin');
    await loginUser(q.id, who.email); // the person is on another site too, so their auth-server user stays
    const onP = await loginUser(p.id, who.email);
    expect((await put(p.id, onP.id, { role: 'member' }, SERVICE_TOKEN)).status).toBe(200);
    expect(await roleOn(p.id, (await loginUser(p.id, who.email)).token)).toBe('member');
    return { p, q, who, onP };
  }

  it('delete yourself, log in again: not admin of P', async () => {
    const { p, who, onP } = await demotedAdmin();
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: p.id, userId: onP.id }, token: onP.token })).status).toBe(200);
    const again = await loginUser(p.id, who.email);
    expect(again.id).not.toBe(onP.id);
    expect(await roleOn(p.id, again.token)).toBe('member');
  });

  it('anonymize yourself on P, log in again: not admin of P', async () => {
    const { p, who, onP } = await demotedAdmin();
    expect((await invoke(doAnonymize, { method: 'PUT', params: { siteId: p.id, userId: onP.id }, token: onP.token })).status).toBe(200);
    const again = await loginUser(p.id, who.email);
    expect(again.id).not.toBe(onP.id);
    expect(await roleOn(p.id, again.token)).toBe('member');
  });

  it('the floor is per site: the same person new on another site still gets the userinfo role there', async () => {
    const { p, who, onP } = await demotedAdmin();
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: p.id, userId: onP.id }, token: onP.token })).status).toBe(200);
    const r = await createLoginSite(auth);
    expect(await roleOn(r.id, (await loginUser(r.id, who.email)).token)).toBe('admin');
  });

  it('the floor never raises: a member-on-the-auth-server whose site made them editor comes back as member', async () => {
    const p = await createLoginSite(auth);
    const q = await createLoginSite(auth);
    const who = person();
    await loginUser(q.id, who.email);
    const onP = await loginUser(p.id, who.email);
    expect((await put(p.id, onP.id, { role: 'editor' }, SERVICE_TOKEN)).status).toBe(200);
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: p.id, userId: onP.id }, token: onP.token })).status).toBe(200);
    expect(await roleOn(p.id, (await loginUser(p.id, who.email)).token)).toBe('member');
  });

  it('the floor item does not hold the external id: after anonymization nothing on the site names the person', async () => {
    const { p, who, onP } = await demotedAdmin();
    expect((await invoke(doAnonymize, { method: 'PUT', params: { siteId: p.id, userId: onP.id }, token: onP.token })).status).toBe(200);
    const floorKey = roleFloorKey(p.id, auth.url, String(who.id));
    const floor = await dynamo.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: floorKey.PK }, SK: { S: floorKey.SK } }, ConsistentRead: true }));
    expect(floor.Item?.role?.S).toBe('member');
    const partition = await dynamo.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: `SITE#${p.id}` } }, ConsistentRead: true }),
    );
    expect(JSON.stringify(partition.Items)).not.toContain(`|${who.id}"`);
    expect(JSON.stringify(partition.Items)).not.toContain(who.email);
  });
});
