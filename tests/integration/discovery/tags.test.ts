/** Tags: CRUD, access, uniqueness, and the delete that removes a tag from every idea. */
import { describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { markTagDeleting } from '#lib/store/tags/tags';
import { getIdea } from '#lib/store/ideas/ideas';
import { queryAll } from '#lib/store/db/query';
import { sitePk } from '#lib/store/db/keys';
import { allPages, api, ideaText, ids } from './helpers.ts';
import { errorOf } from '#tests/support/bodies';

describe('tags', () => {
  it('moderators create, rename and delete; everyone lists', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const created = await api.createTag(site.id, moderator.token, { name: '  Groen ', group: 'theme' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'group', 'id', 'name', 'siteId', 'updatedAt']);
    expect(created.body).toMatchObject({ siteId: site.id, name: 'Groen', group: 'theme' });
    const noGroup = await api.createTag(site.id, moderator.token, { name: 'Verkeer' });
    expect(noGroup.body.group).toBeNull();

    const listed = await api.tags(site.id);
    expect(listed.status).toBe(200);
    expect(ids(listed.body.records)).toEqual([created.body.id, noGroup.body.id]);
    expect(listed.body.metadata).toEqual({ pageSize: 100, nextCursor: null });

    const renamed = await api.updateTag(site.id, moderator.token, created.body.id, { name: 'Groener' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'Groener', group: 'theme', createdAt: created.body.createdAt });
    // The old name is free again after a rename.
    expect((await api.createTag(site.id, moderator.token, { name: 'groen', group: 'theme' })).status).toBe(201);

    const gone = await api.deleteTag(site.id, moderator.token, noGroup.body.id);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: noGroup.body.id, deleted: true });
    expect((await api.deleteTag(site.id, moderator.token, noGroup.body.id)).status).toBe(404);
    expect((await api.updateTag(site.id, moderator.token, noGroup.body.id, { name: 'x' })).status).toBe(404);
  });

  it('a name is unique per site and group, case-insensitively (409), and free in another group or site', async () => {
    const site = await createSite();
    const other = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    expect((await api.createTag(site.id, moderator.token, { name: 'Park', group: 'area' })).status).toBe(201);
    const dup = await api.createTag(site.id, moderator.token, { name: 'PARK ', group: 'area' });
    expect(dup.status).toBe(409);
    expect(errorOf(dup.body).error).toBe('Conflict');
    expect((await api.createTag(site.id, moderator.token, { name: 'Park', group: 'theme' })).status).toBe(201);
    expect((await api.createTag(site.id, moderator.token, { name: 'Park' })).status).toBe(201);
    expect((await api.createTag(other.id, SERVICE_TOKEN, { name: 'Park', group: 'area' })).status).toBe(201);
    // Renaming onto a taken name is a 409 and changes nothing.
    const second = await api.createTag(site.id, moderator.token, { name: 'Plein', group: 'area' });
    expect((await api.updateTag(site.id, moderator.token, second.body.id, { name: 'park' })).status).toBe(409);
    expect((await api.tags(site.id)).body.records.find((t) => t.id === second.body.id)!.name).toBe('Plein');
  });

  it('refuses members (403), callers without a token (401), and bad names (400)', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    const moderator = await createUser(site.id, 'moderator');
    expect((await api.createTag(site.id, undefined, { name: 'x' })).status).toBe(401);
    expect((await api.createTag(site.id, member.token, { name: 'x' })).status).toBe(403);
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(65) }, { name: 5 }, { name: 'x', group: 'g'.repeat(65) }]) {
      const res = await api.createTag(site.id, moderator.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.createTag(site.id, moderator.token, { name: '🙂'.repeat(64) })).status).toBe(201);
    const tag = (await api.tags(site.id)).body.records[0];
    expect((await api.updateTag(site.id, member.token, tag!.id, { name: 'y' })).status).toBe(403);
    expect((await api.deleteTag(site.id, member.token, tag!.id)).status).toBe(403);
    expect((await api.tags(site.id)).body.records).toHaveLength(1);
  });

  it('ideas carry tag ids; an unknown or foreign tag is a 400 at tags[i]', async () => {
    const site = await createSite();
    const other = await createSite();
    const member = await createUser(site.id, 'member');
    const a = await api.createTag(site.id, SERVICE_TOKEN, { name: 'A' });
    const foreign = await api.createTag(other.id, SERVICE_TOKEN, { name: 'A' });
    const idea = await api.createIdea(site.id, member.token, { ...ideaText('Tagged idea'), tags: [a.body.id] });
    expect(idea.status).toBe(201);
    expect(idea.body.tags).toEqual([a.body.id]);
    expect(idea.body.location).toBeNull();

    const bad = await api.createIdea(site.id, member.token, { ...ideaText('Bad tags'), tags: [a.body.id, foreign.body.id, 999999999] });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body).details!.map((d) => d.path)).toEqual(['tags[1]', 'tags[2]']);
    for (const tags of ['1', [0], [-1], [1.5], ['1'], Array.from({ length: 21 }, (_, i) => i + 1)]) {
      expect((await api.createIdea(site.id, member.token, { ...ideaText('Bad tags'), tags })).status, JSON.stringify(tags)).toBe(400);
    }
    const untagged = await api.updateIdea(site.id, member.token, idea.body.id, { tags: [] });
    expect(untagged.status).toBe(200);
    expect(untagged.body.tags).toEqual([]);
  });

  it('deleting a tag removes it from every idea, and the tag filter no longer finds them', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const doomed = await api.createTag(site.id, moderator.token, { name: 'Doomed' });
    const kept = await api.createTag(site.id, moderator.token, { name: 'Kept' });
    const ideas = [];
    for (let i = 0; i < 4; i++) {
      ideas.push((await api.createIdea(site.id, moderator.token, { ...ideaText(`Idea ${i}`), tags: [doomed.body.id, kept.body.id] })).body);
    }
    expect((await api.deleteTag(site.id, moderator.token, doomed.body.id)).status).toBe(200);
    for (const idea of ideas) expect((await getIdea(site.id, idea.id))!.tags).toEqual([kept.body.id]);
    expect((await api.list(site.id, { tags: String(doomed.body.id) })).body.records).toEqual([]);
    expect(ids((await api.list(site.id, { tags: String(kept.body.id), sort: 'createdate_asc' })).body.records)).toEqual(ids(ideas));
    // No index item of the tag is left, nor its name guard: the name can be used again.
    const leftovers = await queryAll<{ SK: string }>({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': sitePk(site.id), ':p': 'IX#T#' },
    });
    expect(leftovers.every((item) => !item.SK.includes(`#${String(doomed.body.id).padStart(10, '0')}#`))).toBe(true);
    expect((await api.createTag(site.id, moderator.token, { name: 'Doomed' })).status).toBe(201);
  });

  it('a tag delete that stopped halfway is finished by the retried DELETE; meanwhile nobody can add the tag', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const tag = await api.createTag(site.id, moderator.token, { name: 'Half' });
    const idea = (await api.createIdea(site.id, moderator.token, { ...ideaText('Half idea'), tags: [tag.body.id] })).body;
    // The first attempt made the tombstone and then failed.
    expect(await markTagDeleting(site.id, tag.body.id)).toBe(true);
    expect(ids((await api.tags(site.id)).body.records)).toEqual([]);
    const adding = await api.createIdea(site.id, moderator.token, { ...ideaText('Late idea'), tags: [tag.body.id] });
    expect(adding.status).toBe(400);
    expect(errorOf(adding.body).details![0]!.path).toBe('tags[0]');
    expect((await api.updateTag(site.id, moderator.token, tag.body.id, { name: 'x' })).status).toBe(404);

    expect((await api.deleteTag(site.id, moderator.token, tag.body.id)).status).toBe(200);
    expect((await getIdea(site.id, idea.id))!.tags).toEqual([]);
    expect((await api.deleteTag(site.id, moderator.token, tag.body.id)).status).toBe(404);
  });

  it('a tag deleted while ideas are being given it leaves no idea with it', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const tag = (await api.createTag(site.id, moderator.token, { name: 'Racing' })).body.id;
    const other = (await api.createTag(site.id, moderator.token, { name: 'Stays' })).body.id;
    const existing = [];
    for (let i = 0; i < 4; i++) existing.push((await api.createIdea(site.id, moderator.token, { ...ideaText(`Existing ${i}`), tags: [other] })).body.id as number);
    const answers = await Promise.all([
      api.deleteTag(site.id, moderator.token, tag),
      ...Array.from({ length: 4 }, (_, i) => api.createIdea(site.id, moderator.token, { ...ideaText(`Racer ${i}`), tags: [tag, other] })),
      ...existing.map((id) => api.updateIdea(site.id, moderator.token, id, { tags: [other, tag] })),
    ]);
    expect(answers[0]!.status).toBe(200);
    // 409: an update that kept losing to the sweep's rewrite of the same idea (CONTRACT: a lost race is a 409).
    for (const answer of answers.slice(1)) expect([200, 201, 400, 409]).toContain(answer.status);
    const all = await allPages((q) => api.list(site.id, q), { pageSize: '3' });
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const record of all) expect(record.tags).not.toContain(tag);
    expect((await api.list(site.id, { tags: String(tag) })).body.records).toEqual([]);
  });
});
