/**
 * GET /api/site/:SITE_ID/user/:USER_ID/export (GDPR art. 15/20): the user themself,
 * the site's admin or a service token get every record about the person on every site the same
 * auth-server user is on, as one document; anyone else is refused before anything is read.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '#lib/store/db/ids';
import { sitePk } from '#lib/store/db/keys';
import { userKeys } from '#lib/store/users/keys';
import { putNewSignup } from '#lib/store/newsletter/newsletter';
import { externalKeyOf } from '#lib/store/users/users';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { putIdea } from '#tests/support/ideas-fixture';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { castVotes, createIdea, votingSite } from '#tests/support/vote-fixtures';
import { handler } from '../../../functions/users/export.ts';
import type { UserExportResponse } from '#schemas/results';

const exportOf = (siteId: number, userId: number, token?: string) =>
  invoke<UserExportResponse>(handler, { method: 'GET', path: '/api/site/{siteId}/user/{userId}/export', params: { siteId, userId }, ...(token ? { token } : {}) });

/** A site user linked to the auth-server user `external` (as a login writes it). */
function linkedUser(siteId: number, external: string, role: 'member' | 'admin' = 'member') {
  const link = externalKeyOf('auth-test', external);
  return createUser(siteId, role, { authServer: 'auth-test', externalUserId: external, ...userKeys.userByExternal(link), GSI1SK: sitePk(siteId) });
}

async function signup(siteId: number, userId: number) {
  const id = newId();
  const email = `news${id}@example.org`;
  await putNewSignup({ id, siteId, email, emailKey: email, firstName: 'N', lastName: 'S', confirmed: true, createdAt: new Date().toISOString(), userId });
  return id;
}

describe('user data export', () => {
  it("the person's records on every site: users, ideas, votes, newsletter signups", async () => {
    const external = `person-${Date.now()}`;
    const siteA = await votingSite({ voteType: 'likes' });
    const siteB = await createSite();
    const [a, b] = [await linkedUser(siteA.id, external), await linkedUser(siteB.id, external)];
    const own = await putIdea(siteA.id, { userId: a.id });
    const elsewhere = await putIdea(siteB.id, { userId: b.id });
    // Someone else's data stays out.
    const stranger = await createUser(siteA.id);
    const voted = await createIdea(siteA.id, { userId: stranger.id });
    expect((await castVotes(siteA.id, a.token, [{ ideaId: voted.id }])).status).toBe(200);
    const signupId = await signup(siteB.id, b.id);

    const answer = await exportOf(siteA.id, a.id, a.token);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['arguments', 'articles', 'ideas', 'newsletterSignups', 'users', 'votes']);
    expect(answer.body.users.map((u) => [u.siteId, u.id])).toEqual([
      [siteA.id, a.id],
      [siteB.id, b.id],
    ]);
    expect(answer.body.users[0]!.email).toBe(`user${a.id}@example.org`);
    expect(answer.body.ideas.map((i) => i.id)).toEqual([own.id, elsewhere.id]);
    expect(answer.body.votes).toEqual([expect.objectContaining({ ideaId: voted.id, userId: a.id, opinion: 'yes', siteId: siteA.id })]);
    expect(answer.body.newsletterSignups).toEqual([expect.objectContaining({ id: signupId, siteId: siteB.id, confirmed: true })]);
    expect(answer.body.newsletterSignups[0]!.confirmToken).toBeUndefined();
    expect(answer.body.articles).toEqual([]);
    expect(answer.body.arguments).toEqual([]);
  });

  it("the site's admin and a service token may export a user; the answer is the same", async () => {
    const site = await createSite();
    const [user, admin] = [await createUser(site.id), await createUser(site.id, 'admin')];
    await putIdea(site.id, { userId: user.id });
    const byAdmin = await exportOf(site.id, user.id, admin.token);
    const byService = await exportOf(site.id, user.id, SERVICE_TOKEN);
    expect(byAdmin.status).toBe(200);
    expect(byService.status).toBe(200);
    expect(byAdmin.body.ideas).toHaveLength(1);
    expect(byService.body.ideas).toEqual(byAdmin.body.ideas);
  });

  it('nobody 401; another member, a moderator, an admin of another site: refused, existing user or not', async () => {
    const site = await createSite();
    const other = await createSite();
    const [user, member, moderator, foreignAdmin] = [
      await createUser(site.id),
      await createUser(site.id),
      await createUser(site.id, 'moderator'),
      await createUser(other.id, 'admin'),
    ];
    expect((await exportOf(site.id, user.id)).status).toBe(401);
    expect((await exportOf(site.id, user.id, member.token)).status).toBe(403);
    expect((await exportOf(site.id, 987_654_321, member.token)).status).toBe(403);
    expect((await exportOf(site.id, user.id, moderator.token)).status).toBe(403);
    expect((await exportOf(site.id, user.id, foreignAdmin.token)).status).toBe(401);
    // The admin of site B asking through site B's path for a user of site A: not found there.
    expect((await exportOf(other.id, user.id, foreignAdmin.token)).status).toBe(404);
  });

  it('cost: constant for a person on one site (no request per record)', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    for (let i = 0; i < 5; i++) await putIdea(site.id, { userId: user.id });
    const { result, requests } = await countRequests(() => exportOf(site.id, user.id, user.token));
    expect(result.body.ideas).toHaveLength(5);
    // The site and the caller (who is the target) in one BatchGet, and one GSI1 Query of what the user owns.
    expect(requests).toBe(2);
  });
});
