/**
 * Attack: a moderator of site P ran `do-anonymizeall` on a person who is also a user
 * of site Q, and wiped their votes and record on Q and their auth-server account. The rule (CONTRACT
 * "Decided details, security"): `will-anonymizeall` and `do-anonymizeall` are for the user themself or
 * a service token; site staff, however high, use the per-site paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { startTestAuthServer } from '../oauth/login-helpers.ts';
import { activitySite, anonymize, contribute, person, sitePartition, vote } from '../users/activity-helpers.ts';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

/** The person on P and Q (an idea, article, argument, signup and a vote on each); staff of P. */
async function world() {
  const p = await activitySite(auth);
  const q = await activitySite(auth);
  const who = person(auth);
  const onP = await contribute(p.id, who.email);
  const onQ = await contribute(q.id, who.email);
  await vote(p.id, onP.user.token, [{ ideaId: onP.ideaId, opinion: 'yes' }]);
  await vote(q.id, onQ.user.token, [{ ideaId: onQ.ideaId, opinion: 'yes' }]);
  const staff = {
    moderator: await createUser(p.id, 'moderator'),
    editor: await createUser(p.id, 'editor'),
    admin: await createUser(p.id, 'admin'),
  };
  return { p: p.id, q: q.id, authId: who.id, onP, onQ, staff };
}

describe('anonymizing a person on every site', () => {
  it("P's moderator, editor and admin get 403 on both paths: P, Q and the auth server untouched", async () => {
    const w = await world();
    const before = { p: await sitePartition(w.p), q: await sitePartition(w.q) };
    const authBefore = structuredClone(auth.control.user(w.authId));
    const calls = auth.control.requests.length;

    for (const staff of [w.staff.moderator, w.staff.editor, w.staff.admin]) {
      for (const path of ['do-anonymizeall', 'will-anonymizeall'] as const) {
        for (const method of path === 'will-anonymizeall' ? ['GET', 'PUT'] : ['PUT']) {
          const res = await anonymize(path, w.p, w.onP.user.id, staff.token, method);
          expect(res.status, `${staff.role} ${method} ${path}`).toBe(403);
          expect(res.body).toMatchObject({ status: 403, error: 'Forbidden' });
        }
      }
    }

    expect(await sitePartition(w.q)).toEqual(before.q);
    expect(await sitePartition(w.p)).toEqual(before.p);
    expect(auth.control.requests.slice(calls)).toEqual([]);
    expect(auth.control.user(w.authId)).toEqual(authBefore);
  });

  it('the same 403 for an id that does not exist (staff learn nothing about ids)', async () => {
    const w = await world();
    expect((await anonymize('do-anonymizeall', w.p, 999_999_999, w.staff.admin.token)).status).toBe(403);
    expect((await anonymize('do-anonymizeall', w.p, 999_999_999, SERVICE_TOKEN)).status).toBe(404);
  });

  it("P's staff still use the per-site path: P's user anonymized, Q's and the auth-server user kept", async () => {
    const w = await world();
    const beforeQ = await sitePartition(w.q);
    const res = await anonymize('do-anonymize', w.p, w.onP.user.id, w.staff.moderator.token);
    expect(res.status).toBe(200);
    expect(await sitePartition(w.q)).toEqual(beforeQ);
    expect(auth.control.user(w.authId)).toBeDefined();
  });

  it('even an admin of P may not anonymize another P user on every site; the person themself and a service token may', async () => {
    const w = await world();
    // The person is made admin on P; another P user is the target: 403.
    expect((await invoke(updateUser, { method: 'PUT', params: { siteId: w.p, userId: w.onP.user.id }, body: { role: 'admin' }, token: SERVICE_TOKEN })).status).toBe(200);
    const other = await createUser(w.p, 'member');
    expect((await anonymize('do-anonymizeall', w.p, other.id, w.onP.user.token)).status).toBe(403);
    // Their own: allowed, on every site.
    const own = await anonymize('will-anonymizeall', w.p, w.onP.user.id, w.onP.user.token);
    expect(own.status).toBe(200);
    expect(own.body.sites.map((s: { id: number }) => s.id)).toEqual([w.p, w.q]);
    // A service token: allowed.
    expect((await anonymize('will-anonymizeall', w.p, w.onP.user.id, SERVICE_TOKEN)).status).toBe(200);
  });
});
