/**
 * Tags of a site (CONTRACT "Decided details, discovery"): everyone lists them, moderators and above
 * create, rename and delete. (group, name) is unique per site, compared trimmed and case-insensitively
 * (the name guard of lib/store/tags/tags.ts; 409 on a duplicate).
 *
 * Deleting a tag removes it from every idea, bounded and retry-safe like the idea delete:
 * 1. the tag becomes a tombstone: it is gone for reads, and no idea write can add it any more (each
 *    idea write checks in its transaction that the tags it adds are live);
 * 2. its members (the tag's index stream, read consistently) lose it, one idea write each (with the
 *    idea's index change; retried when the idea changed meanwhile);
 * 3. the tombstone and its name guard go, together.
 * A DELETE retried after a failure halfway finds the tombstone and finishes. Cost grows with the
 * number of ideas carrying the tag; the reads of lists stay constant.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { conflict, notFound } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import { withNewId } from '#lib/store/db/ids';
import { allIdsOfStream, getIdeaConsistently, streamItemKey } from '#lib/store/ideas/index-items';
import { replaceIdea } from '#lib/store/ideas/ideas';
import { batchDelete } from '#lib/store/db/batch';
import type { PageRequest } from '#lib/store/db/query';
import * as store from '#lib/store/tags/tags';
import { ideaIndexSpec } from '#lib/discovery/index-spec';
import type { CreateTagBody, TagRecord, UpdateTagBody } from '#schemas/tag';
import { REPLAN, withReplan } from '#lib/store/db/replan';

/** Ideas changed at once while a tag is removed from them. */
const PARALLEL_IDEAS = 8;

/** The (group, name) key of the uniqueness guard: NFC, lower case. */
export const nameKeyOf = (name: string, group: string | null) => ({
  group: (group ?? '').normalize('NFC').toLowerCase(),
  name: name.normalize('NFC').toLowerCase(),
});

const toRecord = (item: store.TagItem): TagRecord => ({
  id: item.id,
  siteId: item.siteId,
  name: item.name,
  group: item.group ?? null,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
});

const duplicate = (site: Site, name: string, group: string | null) =>
  conflict(`A tag named "${name}"${group ? ` in group "${group}"` : ''} already exists on site ${site.id}`);

async function getTagOr404(site: Site, tagId: number, options: { includeDeleting?: boolean } = {}) {
  const tag = await store.getTag(site.id, tagId, options);
  if (!tag) throw notFound(`Tag ${tagId} not found on site ${site.id}`);
  return tag;
}

export async function listTags(site: Site, page: PageRequest) {
  const result = await store.listTags(site.id, page);
  return { records: result.items.map(toRecord), nextCursor: result.nextCursor };
}

export async function createTag(site: Site, caller: Caller, body: CreateTagBody): Promise<TagRecord> {
  access.requireRole(caller, 'moderator');
  const group = body.group || null;
  const now = new Date().toISOString();
  const make = (id: number): store.TagItem => ({
    id,
    siteId: site.id,
    name: body.name,
    group,
    createdAt: now,
    updatedAt: now,
    nameKey: nameKeyOf(body.name, group),
  });
  const { item, outcome } = await withNewId(async (id) => {
    const item = make(id);
    return { item, outcome: await store.putNewTag(item) };
  });
  if (outcome === 'duplicate') throw duplicate(site, body.name, group);
  return toRecord(item);
}

export async function updateTag(site: Site, caller: Caller, tagId: number, body: UpdateTagBody): Promise<TagRecord> {
  access.requireRole(caller, 'moderator');
  return withReplan(
    async () => {
      const tag = await getTagOr404(site, tagId);
      const name = body.name ?? tag.name;
      const group = body.group !== undefined ? body.group || null : (tag.group ?? null);
      const next: store.TagItem = { ...tag, name, group, nameKey: nameKeyOf(name, group), updatedAt: new Date().toISOString() };
      if (next.updatedAt === tag.updatedAt) next.updatedAt = new Date(Date.parse(tag.updatedAt) + 1).toISOString();
      const outcome = await store.replaceTag(next, tag);
      if (outcome === 'duplicate') throw duplicate(site, name, group);
      return outcome === 'ok' ? toRecord(next) : REPLAN;
    },
    () => conflict(`Tag ${tagId} is being changed by someone else; try again`),
  );
}

export async function deleteTag(site: Site, caller: Caller, tagId: number): Promise<void> {
  access.requireRole(caller, 'moderator');
  const tag = await getTagOr404(site, tagId, { includeDeleting: true });
  if (!(await store.markTagDeleting(site.id, tagId))) throw notFound(`Tag ${tagId} not found on site ${site.id}`);
  const stream = { kind: 'tag', tag: tagId } as const;
  const ideaIds = await allIdsOfStream(site.id, stream);
  for (let i = 0; i < ideaIds.length; i += PARALLEL_IDEAS) {
    await Promise.all(ideaIds.slice(i, i + PARALLEL_IDEAS).map((ideaId) => removeTagFromIdea(site.id, tagId, ideaId)));
  }
  await store.deleteTagAndGuard(tag);
}

async function removeTagFromIdea(siteId: number, tagId: number, ideaId: number): Promise<void> {
  await withReplan(
    async () => {
      const idea = await getIdeaConsistently(siteId, ideaId);
      if (!idea || !(idea.tags ?? []).includes(tagId)) {
        // A stale entry (an idea deleted, or a write that failed after its index went first).
        await batchDelete([streamItemKey(siteId, { kind: 'tag', tag: tagId }, ideaId)]);
        return;
      }
      const next = { ...idea, tags: idea.tags!.filter((t) => t !== tagId), version: idea.version + 1 };
      const outcome = await replaceIdea(next, idea.version, { index: ideaIndexSpec(next) });
      return outcome === 'ok' ? undefined : REPLAN;
    },
    () => conflict(`Idea ${ideaId} is being changed by someone else; try deleting the tag again`),
  );
}
