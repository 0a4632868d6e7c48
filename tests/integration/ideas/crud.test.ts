import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { getIdea } from '#lib/store/ideas/ideas';
import { readTallies } from '#lib/store/ideas/tallies';
import { castVotes, seedArgument, validIdea } from './helpers.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as getIdeaHandler } from '../../../functions/ideas/get.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';
import { handler as deleteIdea } from '../../../functions/ideas/delete.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import type { IdeaRecord } from '#schemas/idea';
import { errorOf, type Deleted, type ListEnvelope } from '#tests/support/bodies';

const post = (siteId: number, body: unknown, token?: string) =>
  invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId }, body, ...(token ? { token } : {}) });
const put = (siteId: number, ideaId: number | string, body: unknown, token?: string) =>
  invoke<IdeaRecord>(updateIdea, { method: 'PUT', params: { siteId, ideaId }, body, ...(token ? { token } : {}) });
const del = (siteId: number, ideaId: number | string, token?: string) =>
  invoke<Deleted>(deleteIdea, { method: 'DELETE', params: { siteId, ideaId }, ...(token ? { token } : {}) });
const get = (siteId: number, ideaId: number | string, query?: Record<string, string>) =>
  invoke<IdeaRecord>(getIdeaHandler, { params: { siteId, ideaId }, ...(query ? { query } : {}) });

describe('idea create', () => {
  it('creates an idea owned by the caller, with the CONTRACT record shape', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    const res = await post(site.id, { ...validIdea(), extraData: { theme: 'green', gone: null } }, member.token);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['id', 'siteId', 'userId', 'title', 'summary', 'description', 'status', 'budget', 'extraData', 'createdAt', 'updatedAt', 'tags', 'location', 'publishDate', 'can'].sort(),
    );
    expect(res.body).toMatchObject({
      siteId: site.id,
      userId: member.id,
      ...validIdea(),
      status: 'OPEN',
      budget: null,
      extraData: { theme: 'green' },
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);

    const read = await get(site.id, res.body.id);
    expect(read.status).toBe(200);
    // What the caller may do differs by caller: the creator may edit, an anonymous reader may not.
    expect(read.body).toEqual({ ...res.body, can: { edit: false, delete: false } });
    // Created together with its tally registration, so it is votable (and listed by votes) at once.
    expect((await readTallies(site.id, [res.body.id])).has(res.body.id)).toBe(true);
  });

  it('needs a token (401) and, while canAddNewIdeas is false, a moderator (403)', async () => {
    const site = await createSite({ ideas: { canAddNewIdeas: false } });
    expect((await post(site.id, validIdea())).status).toBe(401);
    const member = await createUser(site.id, 'member');
    const refused = await post(site.id, validIdea(), member.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 403, error: 'Forbidden' });
    const moderator = await createUser(site.id, 'moderator');
    expect((await post(site.id, validIdea(), moderator.token)).status).toBe(201);
    expect((await post(site.id, validIdea(), SERVICE_TOKEN)).status).toBe(201);
    const list = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } });
    expect(list.body.records).toHaveLength(2);
  });

  it.each([['status', 'ACCEPTED'], ['budget', 1000], ['userId', 1]])(
    'refuses a member setting %s with 403 and stores nothing',
    async (field, value) => {
      const site = await createSite();
      const member = await createUser(site.id, 'member');
      const res = await post(site.id, { ...validIdea(), [field]: value }, member.token);
      expect(res.status).toBe(403);
      expect(errorOf(res.body).message).toContain(field);
      expect((await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } })).body.records).toEqual([]);
    },
  );

  it('lets a moderator set status, budget and the owner, who must be a user of the site', async () => {
    const site = await createSite();
    const other = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const author = await createUser(site.id, 'member');
    const res = await post(site.id, { ...validIdea(), status: 'ACCEPTED', budget: 2500, userId: author.id }, moderator.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'ACCEPTED', budget: 2500, userId: author.id });

    const stranger = await createUser(other.id, 'member');
    const bad = await post(site.id, { ...validIdea(), userId: stranger.id }, moderator.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ValidationError', details: [{ path: 'userId' }] });
    const nobody = await post(site.id, { ...validIdea(), userId: 999999999 }, SERVICE_TOKEN);
    expect(nobody.status).toBe(400);
    expect((await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } })).body.records).toHaveLength(1);
  });

  it('gives an idea made with a service token no owner unless one is named', async () => {
    const site = await createSite();
    const author = await createUser(site.id, 'member');
    expect((await post(site.id, validIdea(), SERVICE_TOKEN)).body.userId).toBeNull();
    expect((await post(site.id, { ...validIdea(), userId: author.id }, SERVICE_TOKEN)).body.userId).toBe(author.id);
  });

  it('answers a body that is not a JSON object with 400', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    expect((await post(site.id, [validIdea()], member.token)).body).toMatchObject({ status: 400, error: 'ValidationError' });
    expect((await post(site.id, '{"title":', member.token)).body).toMatchObject({ status: 400, error: 'BadRequest' });
    expect((await invoke(createIdea, { method: 'POST', params: { siteId: site.id }, token: member.token })).status).toBe(400);
  });

  it('answers 404 for an unknown site', async () => {
    expect((await post(999999999, validIdea(), SERVICE_TOKEN)).status).toBe(404);
  });
});

describe('idea read', () => {
  it.each([['abc'], ['0'], ['-1'], ['1.5'], ['012'], ['1e3']])('answers 400 for the idea id %s', async (ideaId) => {
    const site = await createSite();
    const res = await get(site.id, ideaId);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path: 'ideaId' }] });
    expect((await put(site.id, ideaId, {}, SERVICE_TOKEN)).status).toBe(400);
    expect((await del(site.id, ideaId, SERVICE_TOKEN)).status).toBe(400);
  });

  it('answers 404 for an unknown idea and for an idea of another site', async () => {
    const site = await createSite();
    const other = await createSite();
    const member = await createUser(other.id, 'member');
    const foreign = await post(other.id, validIdea(), member.token);
    const missing = await get(site.id, 999999999);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, error: 'NotFound', message: `Idea 999999999 not found on site ${site.id}` });
    expect((await get(site.id, foreign.body.id)).status).toBe(404);
    expect((await put(site.id, foreign.body.id, { title: 'A brand new title' }, SERVICE_TOKEN)).status).toBe(404);
    expect((await del(site.id, foreign.body.id, SERVICE_TOKEN)).status).toBe(404);
    expect((await get(other.id, foreign.body.id)).status).toBe(200);
  });

  it('rejects a flag value other than 1, true, 0 or false', async () => {
    const site = await createSite();
    const created = await post(site.id, validIdea(), SERVICE_TOKEN);
    const res = await get(site.id, created.body.id, { includeUser: 'yes' });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toEqual([{ path: 'includeUser', message: expect.any(String) }]);
    expect((await get(site.id, created.body.id, { includeUser: 'true', unknownThing: 'x' })).status).toBe(200);
  });
});

describe('idea update', () => {
  it('changes only the fields sent and merges extraData key by key', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    const created = await post(site.id, { ...validIdea(), extraData: { theme: 'green', area: 'north', keep: 1 } }, member.token);
    const res = await put(site.id, created.body.id, { title: 'A better title now', extraData: { theme: 'blue', area: null } }, member.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.body.id,
      title: 'A better title now',
      summary: created.body.summary,
      description: created.body.description,
      status: 'OPEN',
      budget: null,
      userId: member.id,
      extraData: { theme: 'blue', keep: 1 },
      createdAt: created.body.createdAt,
    });
    expect(res.body.extraData).not.toHaveProperty('area');
    expect(res.body.updatedAt >= created.body.updatedAt).toBe(true);
    expect((await get(site.id, created.body.id)).body).toEqual({ ...res.body, can: { edit: false, delete: false } });
  });

  it('needs a token (401) and the owner or a moderator (403)', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const other = await createUser(site.id, 'member');
    const moderator = await createUser(site.id, 'moderator');
    const created = await post(site.id, validIdea(), owner.token);
    expect((await put(site.id, created.body.id, { title: 'Anonymous change' })).status).toBe(401);
    expect((await put(site.id, created.body.id, { title: 'Somebody else change' }, other.token)).status).toBe(403);
    expect((await del(site.id, created.body.id)).status).toBe(401);
    expect((await del(site.id, created.body.id, other.token)).status).toBe(403);
    const byModerator = await put(site.id, created.body.id, { status: 'CLOSED', budget: 10 }, moderator.token);
    expect(byModerator.status).toBe(200);
    expect(byModerator.body).toMatchObject({ status: 'CLOSED', budget: 10, userId: owner.id });
    expect((await get(site.id, created.body.id)).body.title).toBe(created.body.title);
  });

  it('refuses an owner setting status, budget or userId with 403 and changes nothing', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const created = await post(site.id, validIdea(), owner.token);
    for (const body of [{ status: 'ACCEPTED' }, { budget: 5 }, { userId: owner.id }, { title: 'A fine new title', budget: null }]) {
      const res = await put(site.id, created.body.id, body, owner.token);
      expect(res.status).toBe(403);
    }
    expect((await get(site.id, created.body.id)).body).toEqual({ ...created.body, can: { edit: false, delete: false } });
  });

  it('lets a moderator hand an idea to another user of the site, and no one else', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const heir = await createUser(site.id, 'member');
    const moderator = await createUser(site.id, 'moderator');
    const created = await post(site.id, validIdea(), owner.token);
    expect((await put(site.id, created.body.id, { userId: 999999999 }, moderator.token)).body).toMatchObject({
      status: 400,
      details: [{ path: 'userId' }],
    });
    const res = await put(site.id, created.body.id, { userId: heir.id }, moderator.token);
    expect(res.body.userId).toBe(heir.id);
    // The new owner may edit it, the old one no longer.
    expect((await put(site.id, created.body.id, { title: 'Title by the new owner' }, heir.token)).status).toBe(200);
    expect((await put(site.id, created.body.id, { title: 'Title by the old owner' }, owner.token)).status).toBe(403);
  });

  it('stops the owner editing or deleting once the idea is not OPEN', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const created = await post(site.id, validIdea(), owner.token);
    await put(site.id, created.body.id, { status: 'ACCEPTED' }, SERVICE_TOKEN);
    const res = await put(site.id, created.body.id, { title: 'Too late for this' }, owner.token);
    expect(res.status).toBe(403);
    expect((await del(site.id, created.body.id, owner.token)).status).toBe(403);
  });

  it('stops the owner after the first vote or argument, unless canEditAfterFirstLikeOrArg', async () => {
    const strict = await createSite();
    const lenient = await createSite({ ideas: { canEditAfterFirstLikeOrArg: true } });
    for (const site of [strict, lenient]) {
      const owner = await createUser(site.id, 'member');
      const voter = await createUser(site.id, 'member');
      const voted = await post(site.id, validIdea('voted'), owner.token);
      const argued = await post(site.id, validIdea('argued'), owner.token);
      const untouched = await post(site.id, validIdea('untouched'), owner.token);
      await castVotes(site.id, voter.id, { [voted.body.id]: 'no' });
      await seedArgument(site.id, argued.body.id, { sentiment: 'against' });
      const expected = site === strict ? 403 : 200;
      expect((await put(site.id, voted.body.id, { title: 'Edited after a vote' }, owner.token)).status).toBe(expected);
      expect((await put(site.id, argued.body.id, { title: 'Edited after an arg' }, owner.token)).status).toBe(expected);
      expect((await put(site.id, untouched.body.id, { title: 'Edited, no activity' }, owner.token)).status).toBe(200);
      expect((await del(site.id, voted.body.id, owner.token)).status).toBe(expected === 403 ? 403 : 200);
      // Moderators are never held back.
      const moderator = await createUser(site.id, 'moderator');
      expect((await put(site.id, argued.body.id, { title: 'Moderator edit ok' }, moderator.token)).status).toBe(200);
    }
  });

  it('lets the owner edit again once the only vote is withdrawn (the tally is back to 0)', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const voter = await createUser(site.id, 'member');
    const created = await post(site.id, validIdea(), owner.token);
    await castVotes(site.id, voter.id, { [created.body.id]: 'yes' });
    expect((await put(site.id, created.body.id, { title: 'Edit while voted' }, owner.token)).status).toBe(403);
    await castVotes(site.id, voter.id, {});
    expect((await put(site.id, created.body.id, { title: 'Edit after withdrawal' }, owner.token)).status).toBe(200);
  });

  it('keeps every change of concurrent updates (writes are conditioned on the version read)', async () => {
    const site = await createSite();
    const created = await post(site.id, validIdea(), SERVICE_TOKEN);
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const results = await Promise.all(keys.map((k) => put(site.id, created.body.id, { extraData: { [k]: k } }, SERVICE_TOKEN)));
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const stored = await getIdea(site.id, created.body.id);
    const succeeded = keys.filter((_, i) => results[i]!.status === 200);
    expect(Object.keys(stored!.extraData).sort()).toEqual(succeeded.sort());
    expect(stored!.version).toBe(1 + succeeded.length);
  });
});

describe('idea delete', () => {
  it('deletes the idea, its arguments and its tally registration', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const created = await post(site.id, validIdea(), owner.token);
    const res = await del(site.id, created.body.id, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: created.body.id, deleted: true });
    expect((await get(site.id, created.body.id)).status).toBe(404);
    expect((await readTallies(site.id, [created.body.id])).has(created.body.id)).toBe(false);
    expect((await del(site.id, created.body.id, owner.token)).status).toBe(404);
  });
});
