/**
 * A first login answers 503 only when every attempt met a taken user id, 409 when it lost the race
 * with concurrent logins REPLAN_ATTEMPTS times. Racing many first logins of one auth-server user on
 * one site must not make any of them answer 409 or 503: each loser of the first round finds the
 * winner's link on its next attempt, so every login 302s to the one site user (no 409, 503 or 500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import type { UserRecord } from '#schemas/user';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as meHandler } from '../../../functions/oauth/me.ts';
import { createLoginSite, login, startTestAuthServer } from '../oauth/login-helpers.ts';

let auth: RunningAuthServer;
beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

describe('racing first logins of one auth-server user', () => {
  it('12 at once on one site: all 302 to the same site user (no 409, no 503)', async () => {
    const site = await createLoginSite(auth);
    const p = auth.control.addUser({ email: `racer-${Date.now()}@example.org`, firstName: 'Race', lastName: 'Condition' });
    const results = await Promise.all(Array.from({ length: 12 }, () => login(site.id, p.email)));
    const statuses = results.map((r) => r.done.status);
    expect(statuses, JSON.stringify(results.filter((r) => r.done.status !== 302).map((r) => r.done.body))).toEqual(Array(12).fill(302));
    const ids = await Promise.all(
      results.map(async (r) => (await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: r.jwt! })).body.id),
    );
    expect(new Set(ids).size).toBe(1);
  });
});
