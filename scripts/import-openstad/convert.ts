/**
 * OpenStad v1 rows -> this API's records, pure: each function returns the record, or the reason it
 * cannot be copied (which the report lists). Ids are kept, so links and frontends keep working.
 *
 * What is deliberately not copied: concept ideas (no `publishDate`: drafts only their author could
 * see; this API has no drafts, so copying them would publish them) and ideas restricted to a role
 * (`viewableByRole` other than `all`: this API shows every idea to everyone); argument votes `no`
 * (OpenStad counted only `yes`); votes and argument votes a moderator rejected (`checked = 0`).
 */
import type { Row } from './source.ts';
import { siteConfigSchema } from '#schemas/site-config';
import { ROLES, type Role } from '#schemas/roles';
import { contentStatuses, type ContentStatus } from '#schemas/content-item';
import { normaliseAuthServerUrl } from '#lib/auth-server/config';
import { firstUnstorablePart, MAX_ATTRIBUTE_NESTING } from '#lib/store/db/storable';
import type { ContentItem } from '#lib/store/content/content-items';

export type Converted<T> = { ok: true; value: T; notes?: string[] } | { ok: false; reason: string };
const refuse = (reason: string): Converted<never> => ({ ok: false, reason });

const str = (value: unknown): string | null => (typeof value === 'string' ? value : value == null ? null : String(value));
const int = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : null;
};

/** A DATETIME as sequelize wrote it (UTC, `YYYY-MM-DD HH:MM:SS`), as ISO-8601; null when absent or invalid. */
export function isoOf(value: unknown): string | null {
  const text = str(value);
  if (!text) return null;
  const date = new Date(/^\d{4}-\d{2}-\d{2} /.test(text) ? `${text.replace(' ', 'T')}Z` : text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A JSON column: text on MariaDB, a value on MySQL. Undefined when it does not parse. */
function jsonOf(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `POINT(lat lng)` (OpenStad stores [lat, lng] as x, y) within WGS84 range, or null. */
function locationOf(text: unknown): { lat: number; lng: number } | null | 'invalid' {
  const raw = str(text);
  if (!raw) return null;
  const match = /^POINT\(\s*(-?[\d.eE+-]+)\s+(-?[\d.eE+-]+)\s*\)$/.exec(raw);
  if (!match) return 'invalid';
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return 'invalid';
  return { lat, lng };
}

interface SiteFields {
  id: number;
  name: string;
  title: string | null;
  domain: string | null;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/**
 * The site and its config. OpenStad's legacy flat `oauth` settings are wrapped in `default` as its own
 * parseConfig does; settings this API's config schema refuses are left out, each noted with why.
 */
export function convertSite(row: Row): Converted<SiteFields> {
  const id = int(row['id']);
  if (id === null || id < 1) return refuse('no valid id');
  const parsed = jsonOf(row['config']);
  const config: Record<string, unknown> = isObject(parsed) ? structuredClone(parsed) : {};
  const notes: string[] = isObject(parsed) ? [] : ['config was not a JSON object; the site starts with the defaults'];
  const oauth = config['oauth'];
  if (isObject(oauth) && !isObject(oauth['default']) && Object.keys(oauth).some((k) => k.startsWith('auth-'))) config['oauth'] = { default: oauth };
  for (let attempt = 0; attempt < 50; attempt++) {
    const result = siteConfigSchema.safeParse(config);
    const storable = firstUnstorablePart(config, 'config', MAX_ATTRIBUTE_NESTING);
    if (result.success && !storable) break;
    const path = storable ? storable.path.replace(/^config\.?/, '').replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean) : (result.error?.issues[0]?.path ?? []).map(String);
    const message = storable ? storable.message : result.error?.issues[0]?.message ?? 'invalid';
    if (path.length === 0 || !removePath(config, path)) return refuse(`its config cannot be stored: ${message}`);
    notes.push(`config.${path.join('.')} left out: ${message}`);
  }
  const now = new Date().toISOString();
  return {
    ok: true,
    value: {
      id,
      name: str(row['name']) ?? `site ${id}`,
      title: str(row['title']),
      domain: str(row['domain']),
      config,
      createdAt: isoOf(row['createdAt']) ?? now,
      updatedAt: isoOf(row['updatedAt']) ?? now,
    },
    ...(notes.length ? { notes } : {}),
  };
}

function removePath(target: Record<string, unknown>, path: readonly string[]): boolean {
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node) && !Array.isArray(node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  const last = path.at(-1)!;
  if (Array.isArray(node)) {
    node.splice(Number(last), 1);
    return true;
  }
  if (!isObject(node) || !(last in node)) return false;
  return Reflect.deleteProperty(node, last);
}

/** The auth server a site's users log in through (its `oauth.default`), normalised as logins store it. */
export function authServerOf(config: Record<string, unknown>): string | null {
  const oauth = config['oauth'];
  const entry = isObject(oauth) ? oauth['default'] : undefined;
  const url = isObject(entry) ? str(entry['auth-server-url']) : null;
  return url ? (normaliseAuthServerUrl(url) ?? null) : null;
}

interface UserFields {
  id: number;
  siteId: number;
  role: Role;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  nickName: string | null;
  extraData: Record<string, unknown>;
  externalUserId: string | null;
  authServer: string | null;
  listableByRole: string | null;
  detailsViewableByRole: string | null;
  gender: string | null;
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
}

/** OpenStad's roles `su`, `superAdmin` and `unknown` grant nothing there (not in its role table): `anonymous` here. */
export function convertUser(row: Row, siteId: number, authServer: string | null): Converted<UserFields> {
  const id = int(row['id']);
  if (id === null || id < 1) return refuse('no valid id');
  const rawRole = str(row['role']) ?? 'anonymous';
  const role: Role = (ROLES as readonly string[]).includes(rawRole) ? (rawRole as Role) : 'anonymous';
  const notes = role === rawRole ? [] : [`role ${rawRole} is not one of this API's roles: stored as anonymous`];
  const external = int(row['externalUserId']);
  const extraData = jsonOf(row['extraData']);
  const createdAt = isoOf(row['createdAt']) ?? new Date().toISOString();
  return {
    ok: true,
    value: {
      id,
      siteId,
      role,
      email: str(row['email']),
      firstName: str(row['firstName']),
      lastName: str(row['lastName']),
      nickName: str(row['nickName']),
      extraData: isObject(extraData) ? extraData : {},
      externalUserId: external !== null && authServer ? String(external) : null,
      authServer: external !== null && authServer ? authServer : null,
      listableByRole: str(row['listableByRole']),
      detailsViewableByRole: str(row['detailsViewableByRole']),
      gender: str(row['gender']),
      lastActivityAt: isoOf(row['lastLogin']) ?? createdAt,
      createdAt,
      updatedAt: isoOf(row['updatedAt']) ?? createdAt,
    },
    ...(notes.length ? { notes } : {}),
  };
}

/** An idea or article as the content store keeps it (ideas with `publishDate`, `tags`, `location`). */
type ContentFields = ContentItem;

/** An idea or article; `users`: the ids of the site's users this import copies (an author not among them is dropped). */
export function convertContent(
  row: Row,
  kind: 'idea' | 'article',
  siteId: number,
  users: ReadonlySet<number>,
  tags: readonly number[] = [],
): Converted<ContentFields> {
  const id = int(row['id']);
  if (id === null || id < 1) return refuse('no valid id');
  const notes: string[] = [];
  if (kind === 'idea') {
    if (!isoOf(row['publishDate'])) return refuse('a concept (never published): this API has no drafts, copying it would publish it');
    const visibility = str(row['viewableByRole']);
    if (visibility && visibility !== 'all') return refuse(`visible only to ${visibility}: this API shows every idea to everyone`);
  }
  const status = str(row['status']) ?? 'OPEN';
  if (!(contentStatuses as readonly string[]).includes(status)) return refuse(`unknown status ${status}`);
  const title = str(row['title']);
  if (!title) return refuse('no title');
  let userId = int(row['userId']);
  if (userId !== null && !users.has(userId)) {
    if (userId > 0) notes.push(`author ${userId} is not a copied user of the site: stored without an author`);
    userId = null;
  }
  const extraData = jsonOf(row['extraData']);
  const location = locationOf(row['locationText']);
  if (location === 'invalid') notes.push(`location ${String(row['locationText'])} is not a WGS84 point: left out`);
  const createdAt = isoOf(row['createdAt']) ?? new Date().toISOString();
  const value: ContentFields = {
    id,
    siteId,
    userId,
    title,
    summary: str(row['summary']) ?? '',
    description: str(row['description']) ?? '',
    status: status as ContentStatus,
    budget: int(row['budget']),
    extraData: isObject(extraData) ? extraData : {},
    createdAt,
    updatedAt: isoOf(row['updatedAt']) ?? createdAt,
    version: 1,
  };
  if (kind === 'idea') {
    value.publishDate = isoOf(row['publishDate'])!;
    value.tags = [...tags];
    value.location = location === 'invalid' ? null : location;
  }
  return { ok: true, value, ...(notes.length ? { notes } : {}) };
}

interface ArgumentFields {
  id: number;
  siteId: number;
  ideaId: number;
  userId: number | null;
  parentId: number | null;
  sentiment: 'for' | 'against';
  description: string;
  createdAt: string;
  updatedAt: string;
}

export function convertArgument(row: Row, siteId: number, ideas: ReadonlySet<number>, copied: ReadonlySet<number>, users: ReadonlySet<number>): Converted<ArgumentFields> {
  const id = int(row['id']);
  const ideaId = int(row['ideaId']);
  if (id === null || id < 1 || ideaId === null) return refuse('no valid id');
  if (!ideas.has(ideaId)) return refuse(`its idea ${ideaId} was not copied`);
  const parentId = int(row['parentId']);
  if (parentId !== null && !copied.has(parentId)) return refuse(`the argument it replies to (${parentId}) was not copied`);
  const raw = str(row['sentiment']);
  const notes = raw === 'no sentiment' ? ['sentiment "no sentiment" is not one of this API\'s: stored as for'] : [];
  let userId = int(row['userId']);
  if (userId !== null && !users.has(userId)) userId = null;
  const createdAt = isoOf(row['createdAt']) ?? new Date().toISOString();
  return {
    ok: true,
    value: {
      id,
      siteId,
      ideaId,
      userId,
      parentId,
      sentiment: raw === 'against' ? 'against' : 'for',
      description: str(row['description']) ?? '',
      createdAt,
      updatedAt: isoOf(row['updatedAt']) ?? createdAt,
    },
    ...(notes.length ? { notes } : {}),
  };
}

/** A vote counts when it is live and a moderator did not reject it (`checked` null or 1), as OpenStad counted. */
export const voteCounts = (row: Row) => row['checked'] === null || row['checked'] === undefined || Number(row['checked']) === 1;

export { int as intOf, str as textOf };
