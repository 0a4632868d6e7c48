/**
 * GET /api/site/:SITE_ID/results (CONTRACT "Decided details, results and exports"): who may read it
 * before and after the end, and the body per vote type (ties, per-theme budgets, empty sites), as a
 * service token's request computes it. Snapshots, their cost and who computes: snapshots.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/vote-fixtures';
import { putBallots } from '#tests/support/ballot-fixtures';
import { invoke } from '#tests/support/invoke';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler } from '../../../functions/results/get.ts';
import { errorOf, type ResultsRecord } from '#tests/support/bodies';

const results = (siteId: number, token?: string) =>
  invoke<ResultsRecord>(handler, { method: 'GET', path: '/api/site/{siteId}/results', params: { siteId }, ...(token ? { token } : {}) });

async function siteWith(config: SiteConfigInput) {
  const site = await createSite(config);
  const [member, moderator] = await Promise.all([createUser(site.id, 'member'), createUser(site.id, 'moderator')]);
  return { site, member, moderator };
}

describe('who may read the results', () => {
  it('before the end, with votes not viewable: moderators and service tokens only', async () => {
    const { site, member, moderator } = await siteWith({ votes: { isActive: true, voteType: 'likes' } });
    expect((await results(site.id)).status).toBe(401);
    const asMember = await results(site.id, member.token);
    expect(asMember.status).toBe(403);
    expect(errorOf(asMember.body).error).toBe('Forbidden');
    expect((await results(site.id, moderator.token)).status).toBe(200);
    expect((await results(site.id, SERVICE_TOKEN)).status).toBe(200);
  });

  it('a moderator of another site is not a moderator here', async () => {
    const { site } = await siteWith({ votes: { voteType: 'likes' } });
    const other = await createSite();
    const foreign = await createUser(other.id, 'moderator');
    expect((await results(site.id, foreign.token)).status).toBe(401);
  });

  it('everyone once votes are viewable', async () => {
    const { site, member } = await siteWith({ votes: { isViewable: true, voteType: 'likes' } });
    expect((await results(site.id, SERVICE_TOKEN)).status).toBe(200); // the first snapshot
    expect((await results(site.id)).status).toBe(200);
    expect((await results(site.id, member.token)).status).toBe(200);
  });

  it('everyone once the project has ended', async () => {
    const { site, member } = await siteWith({ votes: { voteType: 'count' }, project: { projectHasEnded: true } });
    expect((await results(site.id, SERVICE_TOKEN)).status).toBe(200);
    expect((await results(site.id)).status).toBe(200);
    expect((await results(site.id, member.token)).status).toBe(200);
  });

  it('an unknown site is a 404', async () => {
    expect((await results(987_654_321, SERVICE_TOKEN)).status).toBe(404);
  });
});

describe('the body', () => {
  it('an empty site: no ballots, every idea ranked 1 with 0 votes; budgeting has empty winners', async () => {
    const { site } = await siteWith({ votes: { isViewable: true, voteType: 'budgeting', maxBudget: 100 } });
    const a = await createIdea(site.id, { budget: 10 });
    const b = await createIdea(site.id, { budget: 20 });
    const answer = await results(site.id, SERVICE_TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ voteType: 'budgeting', ballots: 0 });
    expect(Date.parse(answer.body.computedAt)).not.toBeNaN();
    expect(answer.body.ideas.map((i: { id: number; rank: number; yes: number }) => [i.id, i.rank, i.yes])).toEqual([
      [a.id, 1, 0],
      [b.id, 1, 0],
    ]);
    expect(answer.body.winners).toEqual({ greedy: { ideaIds: [], spent: 0 }, equalShares: { ideaIds: [], spent: 0 } });
  });

  it('a site without ideas or ballots', async () => {
    const { site } = await siteWith({ votes: { isViewable: true, voteType: 'count' } });
    const answer = await results(site.id, SERVICE_TOKEN);
    expect(answer.body).toMatchObject({ voteType: 'count', ballots: 0, ideas: [] });
    expect(answer.body.winners).toBeUndefined();
  });

  it('likes: ranked by yes, ties by id sharing a rank, no counted', async () => {
    const { site } = await siteWith({ votes: { isViewable: true, voteType: 'likes' } });
    const [a, b, c] = [await createIdea(site.id), await createIdea(site.id), await createIdea(site.id)];
    await putBallots(site.id, [{ ideaIds: [c.id, b.id] }, { ideaIds: [c.id, b.id] }, { ideaIds: [a.id], opinion: 'no' }]);
    const answer = await results(site.id, SERVICE_TOKEN);
    expect(answer.body.ballots).toBe(3);
    expect(answer.body.ideas).toEqual([
      { id: b.id, title: expect.any(String), yes: 2, no: 0, rank: 1 },
      { id: c.id, title: expect.any(String), yes: 2, no: 0, rank: 1 },
      { id: a.id, title: expect.any(String), yes: 0, no: 1, rank: 3 },
    ]);
  });

  it('budgeting: greedy and Equal Shares within maxBudget, the same answer twice but for computedAt', async () => {
    const { site } = await siteWith({ votes: { isViewable: true, voteType: 'budgeting', maxBudget: 100 } });
    const big = await createIdea(site.id, { budget: 80 });
    const small1 = await createIdea(site.id, { budget: 30 });
    const small2 = await createIdea(site.id, { budget: 30 });
    // 3 voters for the big project, 2 for each small one: greedy funds the big one (80, then nothing fits);
    // equal shares gives each of the 5 voters 20: the big project's 3 voters hold 60 < 80, the small
    // ones' 2 voters hold 40 >= 30 each.
    await putBallots(site.id, [
      { ideaIds: [big.id] },
      { ideaIds: [big.id] },
      { ideaIds: [big.id] },
      { ideaIds: [small1.id] },
      { ideaIds: [small1.id, small2.id] },
      { ideaIds: [small2.id] },
    ]);
    const first = await results(site.id, SERVICE_TOKEN);
    expect(first.body.winners!.greedy).toEqual({ ideaIds: [big.id], spent: 80 });
    for (const id of first.body.winners!.equalShares.ideaIds) expect([big.id, small1.id, small2.id]).toContain(id);
    expect(first.body.winners!.equalShares.spent).toBeLessThanOrEqual(100);
    expect(first.body.winners!.equalShares.ideaIds).toEqual(expect.arrayContaining([small1.id, small2.id]));
    const second = await results(site.id, SERVICE_TOKEN);
    expect({ ...second.body, computedAt: 0 }).toEqual({ ...first.body, computedAt: 0 });
  });

  it('budgeting per theme: each theme with its own budget', async () => {
    const { site } = await siteWith({
      votes: { isViewable: true, voteType: 'budgeting-per-theme', maxBudget: 1000, themes: [{ value: 'park', maxBudget: 50 }, { value: 'road' }] },
    });
    const park1 = await createIdea(site.id, { budget: 40, theme: 'park' });
    const park2 = await createIdea(site.id, { budget: 40, theme: 'park' });
    const road = await createIdea(site.id, { budget: 900, theme: 'road' });
    await putBallots(site.id, [{ ideaIds: [park1.id, park2.id, road.id] }, { ideaIds: [park2.id] }]);
    const answer = await results(site.id, SERVICE_TOKEN);
    expect(answer.body.winners).toBeUndefined();
    const [park, roads] = answer.body.themes!;
    expect(park!.value).toBe('park');
    expect(park!.ideas.map((i: { id: number }) => i.id)).toEqual([park2.id, park1.id]);
    expect(park!.winners!.greedy).toEqual({ ideaIds: [park2.id], spent: 40 });
    expect(park!.winners!.equalShares.spent).toBeLessThanOrEqual(50);
    expect(roads!.value).toBe('road');
    // No theme budget: the site's maxBudget applies.
    expect(roads!.winners!.greedy).toEqual({ ideaIds: [road.id], spent: 900 });
  });

  it('count per theme: ranking per theme, no winners', async () => {
    const { site } = await siteWith({ votes: { isViewable: true, voteType: 'count-per-theme', themes: [{ value: 'a' }, { value: 'b' }] } });
    const a = await createIdea(site.id, { theme: 'a' });
    const b = await createIdea(site.id, { theme: 'b' });
    await putBallots(site.id, [{ ideaIds: [a.id, b.id] }, { ideaIds: [b.id] }]);
    const answer = await results(site.id, SERVICE_TOKEN);
    expect(answer.body.themes).toEqual([
      { value: 'a', ideas: [{ id: a.id, title: expect.any(String), yes: 1, no: 0, rank: 1 }] },
      { value: 'b', ideas: [{ id: b.id, title: expect.any(String), yes: 2, no: 0, rank: 1 }] },
    ]);
  });
});

