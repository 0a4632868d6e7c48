/**
 * Create, update and delete of ideas and articles: the same flow for both, parameterised by the
 * kind's rules (lib/content/kind.ts). Order of checks: the record exists (404), the caller may act
 * (401/403), fields only moderators may set (403), the body (400, every failure at once); then one
 * conditional write, so nothing is stored when any check fails.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { mergeExtraData } from '#lib/extra-data/index';
import { badRequest, conflict, notFound, validationError } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import { withNewId } from '#lib/store/db/ids';
import type { ContentItem } from '#lib/store/content/content-items';
import { validateCreateBody, validateUpdateBody } from '#lib/content/body';
import type { ContentKindRules } from '#lib/content/kind';
import { moderatorFields, type ContentUpdateBody } from '#schemas/content-item';
import { REPLAN, withReplan } from '#lib/store/db/replan';


export async function getContentOr404(
  kind: ContentKindRules,
  site: Site,
  id: number,
  options: { includeDeleting?: boolean } = {},
): Promise<ContentItem> {
  const item = await kind.store.get(site.id, id, options);
  if (!item) throw notFound(`${kind.label} ${id} not found on site ${site.id}`);
  return item;
}

const noSuchUser = (site: Site, userId: number | null) =>
  validationError([{ path: 'userId', message: `User ${userId} not found on site ${site.id}` }]);

/** Each request is at most 256 KiB, but updates merge extraData, so a record can grow past what one item holds. */
const tooLarge = (kind: ContentKindRules) =>
  badRequest(`The ${kind.label.toLowerCase()} would be larger than the 400 KB a record can hold; remove extraData or shorten texts`);

/**
 * A new item belongs to the caller; a moderator (or a service token) may name another user of the
 * site, or nobody (`userId: null`). A named user must exist on the site, checked in the same write.
 */
export async function createContent(kind: ContentKindRules, site: Site, caller: Caller, body: Record<string, unknown>): Promise<ContentItem> {
  kind.assertCreate(caller, site.config);
  access.assertModeratorFields(caller, body, moderatorFields);
  const input = validateCreateBody(kind.section(site.config), body);
  const kindFields = (await kind.kindFields?.(site, body, 'create')) ?? {};
  const named = input.userId !== undefined;
  const userId = named ? (input.userId ?? null) : caller.kind === 'user' ? caller.userId : null;
  const now = new Date().toISOString();
  const make = (id: number): ContentItem => ({
    id,
    siteId: site.id,
    userId,
    title: input.title,
    summary: input.summary,
    description: input.description,
    status: input.status ?? 'OPEN',
    budget: input.budget ?? null,
    extraData: mergeExtraData(undefined, input.extraData as Record<string, unknown> | undefined),
    createdAt: now,
    updatedAt: now,
    version: 1,
    ...kindFields,
  });
  const { item, outcome } = await withNewId(async (id) => {
    const item = make(id);
    return { item, outcome: await kind.store.putNew(item, { checkUser: named && userId !== null ? userId : undefined }) };
  });
  if (outcome === 'no-user') throw noSuchUser(site, userId);
  if (outcome === 'too-large') throw tooLarge(kind);
  return item;
}

/** The fields sent replace the stored ones; extraData is merged key by key (null removes a key). */
function applyUpdate(item: ContentItem, input: ContentUpdateBody): ContentItem {
  return {
    ...item,
    title: input.title ?? item.title,
    summary: input.summary ?? item.summary,
    description: input.description ?? item.description,
    status: input.status ?? item.status,
    budget: input.budget !== undefined ? input.budget : item.budget,
    userId: input.userId !== undefined ? input.userId : item.userId,
    extraData:
      input.extraData !== undefined ? mergeExtraData(item.extraData, input.extraData as Record<string, unknown>) : item.extraData,
    updatedAt: new Date().toISOString(),
    version: item.version + 1,
  };
}

/**
 * A partial update, written only if nobody changed the item since it was read (its `version`); when
 * somebody did, the item is read again, access decided again on what it is now (a moderator may
 * have closed it), and the change applied to it, so no concurrent change is lost.
 */
export async function updateContent(
  kind: ContentKindRules,
  site: Site,
  caller: Caller,
  id: number,
  body: Record<string, unknown>,
): Promise<ContentItem> {
  const first = await getContentOr404(kind, site, id);
  await kind.assertModify(caller, first, site);
  access.assertModeratorFields(caller, body, moderatorFields);
  const input = validateUpdateBody(kind.section(site.config), body);
  const kindFields = (await kind.kindFields?.(site, body, 'update')) ?? {};
  const checkUser = input.userId != null ? input.userId : undefined;
  return withReplan(
    async (attempt) => {
      // A lost race reads the item again and applies the same change to what it finds.
      const item = attempt === 1 ? first : await getContentOr404(kind, site, id);
      if (attempt > 1) await kind.assertModify(caller, item, site);
      const next = { ...applyUpdate(item, input), ...kindFields };
      const outcome = await kind.store.replace(next, item.version, { checkUser });
      if (outcome === 'no-user') throw noSuchUser(site, input.userId ?? null);
      if (outcome === 'too-large') throw tooLarge(kind);
      return outcome === 'ok' ? next : REPLAN;
    },
    () => conflict(`${kind.label} ${id} is being changed by someone else; try again`),
  );
}

export async function deleteContent(kind: ContentKindRules, site: Site, caller: Caller, id: number): Promise<void> {
  // A tombstone left by a delete that failed halfway is found here, so the retry finishes the job.
  const item = await getContentOr404(kind, site, id, { includeDeleting: true });
  await kind.assertModify(caller, item, site);
  if (!(await kind.store.remove(site.id, id))) throw notFound(`${kind.label} ${id} not found on site ${site.id}`);
}
