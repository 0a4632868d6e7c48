/**
 * `GET /api/site/:SITE_ID/user/:USER_ID/activity`: the five keys, every flag, both scopes (this site,
 * the same auth-server user on other sites through GSI1), who may see it, and the cost per site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { createIdea } from '#tests/support/vote-fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import { activity, activitySite, contribute, createArticle, person, vote, type Contribution } from './activity-helpers.ts';
import { errorOf } from '#tests/support/bodies';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

interface World {
  siteA: number;
  siteB: number;
  onA: Contribution;
  onB: Contribution;
  /** Another person on site A, with an idea the first one voted on. */
  other: Contribution;
  moderatorA: { id: number; token: string };
}

/** One person on sites A and B (an idea, article, argument, signup and votes on each) and another person on A. */
async function world(): Promise<World> {
  // One after the other: answers list sites in id order.
  const siteA = await activitySite(auth);
  const siteB = await activitySite(auth);
  const p = person(auth);
  const q = person(auth, 'Quinn');
  const [onA, onB, other, moderatorA] = await Promise.all([
    contribute(siteA.id, p.email),
    contribute(siteB.id, p.email),
    contribute(siteA.id, q.email),
    createUser(siteA.id, 'moderator'),
  ]);
  await vote(siteA.id, onA.user.token, [
    { ideaId: onA.ideaId, opinion: 'yes' },
    { ideaId: other.ideaId, opinion: 'no' },
  ]);
  await vote(siteB.id, onB.user.token, [{ ideaId: onB.ideaId, opinion: 'yes' }]);
  await vote(siteA.id, other.user.token, [{ ideaId: onA.ideaId, opinion: 'yes' }]);
  return { siteA: siteA.id, siteB: siteB.id, onA, onB, other, moderatorA };
}

let w: World;
beforeAll(async () => {
  w = await world();
});

const ids = (records: { id: number }[]) => records.map((r) => r.id);

describe('activity of a person on several sites', () => {
  it('answers all five keys: this site and the other sites of the same auth-server user', async () => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['ideas', 'articles', 'arguments', 'votes', 'sites']);
    expect(ids(res.body.ideas)).toEqual([w.onA.ideaId, w.onB.ideaId]);
    expect(ids(res.body.articles)).toEqual([w.onA.articleId, w.onB.articleId]);
    expect(ids(res.body.arguments)).toEqual([w.onA.argumentId, w.onB.argumentId]);
    expect(res.body.sites).toEqual([
      { id: w.siteA, name: 'Test site', title: 'Test site' },
      { id: w.siteB, name: 'Test site', title: 'Test site' },
    ]);
    // Records as the features show them.
    expect(res.body.ideas[0]).toMatchObject({ id: w.onA.ideaId, siteId: w.siteA, userId: w.onA.user.id, status: 'OPEN', budget: null });
    expect(res.body.ideas[0]).not.toHaveProperty('version');
    expect(res.body.arguments[0]).toEqual({
      id: w.onA.argumentId,
      siteId: w.siteA,
      ideaId: w.onA.ideaId,
      userId: w.onA.user.id,
      parentId: null,
      sentiment: 'for',
      description: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // By site, then in idea id order (as a ballot is listed).
    const onA = [
      [w.siteA, w.onA.ideaId, w.onA.user.id, 'yes'],
      [w.siteA, w.other.ideaId, w.onA.user.id, 'no'],
    ].sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(res.body.votes.map((v: Record<string, unknown>) => [v.siteId, v.ideaId, v.userId, v.opinion])).toEqual([
      ...onA,
      [w.siteB, w.onB.ideaId, w.onB.user.id, 'yes'],
    ]);
    expect(res.body.votes.find((v: { ideaId: number }) => v.ideaId === w.onA.ideaId)).toEqual({
      id: expect.any(Number),
      ideaId: w.onA.ideaId,
      userId: w.onA.user.id,
      opinion: 'yes',
      createdAt: expect.any(String),
      siteId: w.siteA,
    });
  });

  it('is the same from the other site', async () => {
    const fromA = await activity(w.siteA, w.onA.user.id);
    const fromB = await activity(w.siteB, w.onB.user.id, w.onB.user.token);
    expect(fromB.status).toBe(200);
    expect(fromB.body).toEqual(fromA.body);
  });

  it.each([['0'], ['false']])('keeps to this site with includeOtherSites=%s', async (flag) => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token, { includeOtherSites: flag });
    expect(res.status).toBe(200);
    expect(ids(res.body.ideas)).toEqual([w.onA.ideaId]);
    expect(ids(res.body.articles)).toEqual([w.onA.articleId]);
    expect(ids(res.body.arguments)).toEqual([w.onA.argumentId]);
    expect(ids(res.body.votes).length).toBe(2);
    expect(res.body.sites).toEqual([{ id: w.siteA, name: 'Test site', title: 'Test site' }]);
  });

  it('includes other sites with includeOtherSites=1 as by default', async () => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token, { includeOtherSites: '1' });
    expect(res.body.sites.map((s: { id: number }) => s.id)).toEqual([w.siteA, w.siteB]);
  });

  it.each([
    ['includeIdeas', 'ideas'],
    ['includeArticles', 'articles'],
    ['includeArguments', 'arguments'],
    ['includeVotes', 'votes'],
  ] as const)('%s=1 alone answers only %s; the other kinds are empty arrays', async (flag, key) => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token, { [flag]: '1' });
    expect(res.status).toBe(200);
    for (const other of ['ideas', 'articles', 'arguments', 'votes'] as const) {
      if (other === key) expect(res.body[other].length).toBeGreaterThan(0);
      else expect(res.body[other]).toEqual([]);
    }
    expect(res.body.sites.map((s: { id: number }) => s.id)).toEqual([w.siteA, w.siteB]);
  });

  it('combines flags, and a flag given as 0 is off', async () => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token, { includeIdeas: 'true', includeVotes: '1', includeArticles: '0' });
    expect(ids(res.body.ideas)).toEqual([w.onA.ideaId, w.onB.ideaId]);
    expect(res.body.votes).toHaveLength(3);
    expect(res.body.articles).toEqual([]);
    expect(res.body.arguments).toEqual([]);
  });

  it('answers empty kinds when every given flag is off (given flags decide)', async () => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token, { includeIdeas: '0' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ideas: [], articles: [], arguments: [], votes: [], sites: expect.any(Array) });
  });

  it('refuses a flag that is not 1, true, 0 or false', async () => {
    const res = await activity(w.siteA, w.onA.user.id, w.onA.user.token, { includeVotes: 'yes' });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toEqual([{ path: 'includeVotes', message: expect.any(String) }]);
  });

  it('shows nothing of the other person', async () => {
    const res = await activity(w.siteA, w.onA.user.id);
    expect(res.body.ideas.every((i) => i.userId !== w.other.user.id)).toBe(true);
    expect(res.body.votes.every((v: { userId: number }) => v.userId !== w.other.user.id)).toBe(true);
    const theirs = await activity(w.siteA, w.other.user.id, w.other.user.token);
    expect(ids(theirs.body.ideas)).toEqual([w.other.ideaId]);
    expect(theirs.body.votes).toEqual([expect.objectContaining({ ideaId: w.onA.ideaId, userId: w.other.user.id })]);
    expect(theirs.body.sites.map((s: { id: number }) => s.id)).toEqual([w.siteA]);
  });
});

describe('who may see it', () => {
  it('the user and moderators of the site (and service tokens)', async () => {
    expect((await activity(w.siteA, w.onA.user.id, w.onA.user.token)).status).toBe(200);
    expect((await activity(w.siteA, w.onA.user.id, w.moderatorA.token)).status).toBe(200);
    expect((await activity(w.siteA, w.onA.user.id, SERVICE_TOKEN)).status).toBe(200);
  });

  it('not another member (403), nobody without a token (401), nor a token of another site (401)', async () => {
    const res = await activity(w.siteA, w.onA.user.id, w.other.user.token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, error: 'Forbidden' });
    expect((await activity(w.siteA, w.onA.user.id, null)).status).toBe(401);
    // The same person's token of site B is not a token of site A.
    expect((await activity(w.siteA, w.onA.user.id, w.onB.user.token)).status).toBe(401);
  });

  it("shows a moderator another site's votes only when that site makes votes public", async () => {
    const byModerator = await activity(w.siteA, w.onA.user.id, w.moderatorA.token);
    // Site B keeps its votes hidden (isViewable false): only site A's two votes.
    expect(byModerator.body.votes.map((v: { siteId: number }) => v.siteId)).toEqual([w.siteA, w.siteA]);
    expect(byModerator.body.ideas).toHaveLength(2);
    const bySelf = await activity(w.siteA, w.onA.user.id, w.onA.user.token);
    expect(bySelf.body.votes.map((v: { siteId: number }) => v.siteId).sort()).toEqual([w.siteA, w.siteA, w.siteB].sort());
  });

  it('a moderator of another site may not look on this site', async () => {
    const moderatorB = await createUser(w.siteB, 'moderator');
    expect((await activity(w.siteA, w.onA.user.id, moderatorB.token)).status).toBe(401);
  });

  it('404 for an unknown user (moderator); a member learns nothing about other ids (403)', async () => {
    expect((await activity(w.siteA, 999_999_999, w.moderatorA.token)).status).toBe(404);
    expect((await activity(w.siteA, 999_999_999, w.other.user.token)).status).toBe(403);
    // A user of site B is not a user of site A.
    expect((await activity(w.siteA, w.onB.user.id, w.moderatorA.token)).status).toBe(404);
  });
});

describe('users without an auth server', () => {
  it('have this site only, and an empty activity is five empty arrays but the site', async () => {
    const site = await createSite();
    const user = await createUser(site.id, 'member');
    const res = await activity(site.id, user.id, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ideas: [], articles: [], arguments: [], votes: [], sites: [{ id: site.id, name: 'Test site', title: 'Test site' }] });
    await createIdea(site.id, { userId: user.id });
    expect((await activity(site.id, user.id, user.token)).body.ideas).toHaveLength(1);
  });
});

describe('cost: constant per site involved', () => {
  it('one GSI1 Query per site user, one for the other sites, one BatchGet of sites, whatever the number of records', async () => {
    const sites = await Promise.all([activitySite(auth), activitySite(auth), activitySite(auth)]);
    const p = person(auth);
    const users = [];
    for (const site of sites) users.push({ siteId: site.id, ...(await loginUser(site.id, p.email)) });
    const [first] = users as [(typeof users)[number]];
    await createIdea(first.siteId, { userId: first.id });

    const measure = async () => {
      const { result, requests, commands } = await countRequests(() => activity(first.siteId, first.id, first.token));
      expect(result.status).toBe(200);
      return { requests, commands };
    };
    const small = await measure();
    // site + caller (the target itself) in one BatchGet, the person's other sites (GSI1), 3 owned-items
    // Queries, sites BatchGet.
    expect(small.requests).toBe(6);
    expect(small.commands).toEqual({ QueryCommand: 4, BatchGetItemCommand: 2 });

    // Many more records on every site: the same number of requests.
    for (const u of users) {
      for (let i = 0; i < 15; i++) await createIdea(u.siteId, { userId: u.id });
      await Promise.all(Array.from({ length: 10 }, () => createArticle(u.siteId, u.id)));
    }
    const large = await measure();
    expect(large.requests).toBe(6);
    expect((await activity(first.siteId, first.id)).body.ideas).toHaveLength(1 + 45);

    // One more site: one more Query.
    const fourth = await activitySite(auth);
    await loginUser(fourth.id, p.email);
    expect((await measure()).requests).toBe(7);

    // This site only: no index lookup of other sites, no site BatchGet.
    const own = await countRequests(() => activity(first.siteId, first.id, first.token, { includeOtherSites: '0' }));
    expect(own.requests).toBe(2);

    // A moderator reading someone else: + the target's GetItem.
    const moderator = await createUser(first.siteId, 'moderator');
    const byModerator = await countRequests(() => activity(first.siteId, first.id, moderator.token));
    expect(byModerator.requests).toBe(8);
  });
});
