/**
 * The person's data export (`GET /api/site/:SITE_ID/user/:USER_ID/export`): it spans
 * every site of the person only for the person themself or a service token. An admin of P is nobody on
 * Q, so the export they get must hold nothing of Q: not Q's record, and above all not the person's
 * votes on Q, which Q keeps secret (`votes.isViewable: false`) even from its own public.
 * Rule: `access.results.userExportsEverySite`, lib/privacy/export.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { putIdea } from '#tests/support/ideas-fixture';
import { castVotes } from '#tests/support/vote-fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as exportUser } from '../../../functions/users/export.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { UserExportResponse } from '#schemas/results';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

describe("P's admin exports a person who is also on Q", () => {
  it("holds nothing of Q: no Q record, no secret Q votes, no Q signups", async () => {
    const q = await createLoginSite(auth, { votes: { isActive: true, isViewable: false } });
    const p = await createLoginSite(auth);
    const who = auth.control.addUser({ email: `export-${Date.now()}@example.org`, firstName: 'Vera', lastName: 'Voter' });
    const onQ = await loginUser(q.id, who.email);
    const onP = await loginUser(p.id, who.email);
    const idea = await putIdea(q.id, { userId: null });
    const cast = await castVotes(q.id, onQ.token, [{ ideaId: idea.id, opinion: 'yes' }]);
    expect(cast.status, JSON.stringify(cast.body)).toBeLessThan(300);
    const adminOfP = await createUser(p.id, 'admin');

    const res = await invoke<UserExportResponse>(exportUser, { params: { siteId: p.id, userId: onP.id }, token: adminOfP.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const onSiteQ = (list: { siteId?: number }[] | undefined) => (list ?? []).filter((r) => r.siteId === q.id);
    expect(onSiteQ(res.body.votes), 'secret votes of site Q').toEqual([]);
    expect(onSiteQ(res.body.users), "Q's user record").toEqual([]);
    // The person themself gets every site, their secret Q votes included.
    const own = await invoke<UserExportResponse>(exportUser, { params: { siteId: p.id, userId: onP.id }, token: onP.token });
    expect(onSiteQ(own.body.users)).toMatchObject([{ id: onQ.id }]);
    expect(onSiteQ(own.body.votes)).toHaveLength(1);
  });
});
