/**
 * Content item -> CONTRACT record, and the includes ideas and articles share (`posterImage`, `user`).
 * The users of a whole page are read with one BatchGet, never one read per record.
 */
import { posterImageOf } from '#lib/extra-data/index';
import { publicUserView, type PublicUser } from '#lib/users/public-view';
import type { SiteConfig } from '#lib/sites/config-defaults';
import { getUsers, type ContentItem } from '#lib/store/content/content-items';
import type { UserItem } from '#lib/store/users/users';
import type { ContentRecord } from '#schemas/content-item';

/** The record fields, in CONTRACT order; `budget` is always there (null when unset), `version` never. */
export function toContentRecord(item: ContentItem): ContentRecord {
  return {
    id: item.id,
    siteId: item.siteId,
    userId: item.userId ?? null,
    title: item.title,
    summary: item.summary,
    description: item.description,
    status: item.status,
    budget: item.budget ?? null,
    extraData: item.extraData ?? {},
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

interface CommonIncludes {
  includePosterImage: boolean;
  includeUser: boolean;
}

/**
 * The users behind a page of items, when `includeUser` asks for them (one BatchGet per 100 users).
 * `known`: users the page already read (a by-votes page reads its authors beside its ideas); only the
 * others are read, so a stale or missing copy costs a read, never a wrong user.
 */
export async function loadUsersOf(
  siteId: number,
  items: readonly ContentItem[],
  flags: CommonIncludes,
  known: ReadonlyMap<number, UserItem> = new Map(),
): Promise<Map<number, UserItem>> {
  if (!flags.includeUser) return new Map();
  const missing = items.flatMap((item) => (item.userId != null && !known.has(item.userId) ? [item.userId] : []));
  const read = missing.length > 0 ? await getUsers(siteId, missing) : new Map<number, UserItem>();
  return new Map([...known, ...read]);
}

/** `posterImage` and `user` onto a record; a user that is gone (or none) shows as `user: null`. */
export function withCommonIncludes<R extends ContentRecord>(
  record: R,
  item: ContentItem,
  flags: CommonIncludes,
  users: ReadonlyMap<number, UserItem>,
  config: SiteConfig,
): R & { posterImage?: { url: string } | null; user?: PublicUser | null } {
  const out: R & { posterImage?: { url: string } | null; user?: PublicUser | null } = record;
  if (flags.includePosterImage) out.posterImage = posterImageOf(item.extraData);
  if (flags.includeUser) {
    const user = item.userId != null ? users.get(item.userId) : undefined;
    out.user = user ? publicUserView(user, config) : null;
  }
  return out;
}
