import { FORBIDDEN_KEY, isPlainObject, safeEntries } from '#lib/extra-data/plain-object';

/**
 * Site-specific values in a user's extraData (spec "extraData of users"). The auth server keeps one
 * user for all sites and stores extraData without understanding it; the API keeps per-site values
 * apart. A stored field is either
 * - a plain value (one value for every site), or
 * - an array "container" of plain entries and `{value, siteId}` entries: the entry of the site wins,
 *   the plain entry is the fallback for the others.
 *
 * An array without a single `{value, siteId}` entry is a plain value (an arrayOfStrings field, or a
 * value set before the field became site-specific), not a container of fallbacks: otherwise every
 * list value would read as its own first element. Writes keep to that: a container always holds a
 * site entry, and once the last one goes the field collapses back to its plain fallback.
 */

const DEFAULT_SITE_SPECIFIC_FIELDS: readonly string[] = ['bio', 'expertise'];

interface SiteEntry {
  value: unknown;
  siteId: number;
}

/**
 * Only exactly `{value, siteId}` with an integer siteId is a site entry, so an ordinary object value
 * that merely has a `siteId` (or more keys) stays an ordinary value.
 */
export function isSiteEntry(entry: unknown): entry is SiteEntry {
  if (!isPlainObject(entry)) return false;
  const keys = Object.keys(entry);
  return (
    keys.length === 2 &&
    Object.hasOwn(entry, 'value') &&
    Object.hasOwn(entry, 'siteId') &&
    Number.isSafeInteger(entry.siteId)
  );
}

/**
 * The fields filtered per site: `bio` and `expertise`, plus or minus what `config.users.extraData`
 * says. The option is spelled `sitespecific` or `site-specific` (the spec has both). When a field has
 * both and they disagree, `site-specific` wins: it is the spelling of the newer interface description,
 * and one fixed rule beats guessing. A non-boolean option is ignored, like an absent one.
 */
export function siteSpecificFields(usersConfig: unknown): Set<string> {
  const fields = new Set(DEFAULT_SITE_SPECIFIC_FIELDS);
  const definitions = isPlainObject(usersConfig) ? usersConfig.extraData : undefined;
  if (!isPlainObject(definitions)) return fields;
  for (const [field, def] of safeEntries(definitions)) {
    if (!isPlainObject(def)) continue;
    const option = typeof def['site-specific'] === 'boolean' ? def['site-specific'] : def.sitespecific;
    if (option === true) fields.add(field);
    else if (option === false) fields.delete(field);
  }
  return fields;
}

/** A stored field split into its plain entries and its site entries, in stored order. */
interface Parts {
  plain: unknown[];
  sites: SiteEntry[];
  /** The stored order of both, for rewriting without reshuffling. */
  all: unknown[];
}

function partsOf(stored: unknown): Parts {
  // null means "removed" everywhere in extraData, so it is no fallback.
  if (stored === undefined || stored === null) return { plain: [], sites: [], all: [] };
  if (Array.isArray(stored) && stored.some(isSiteEntry)) {
    return {
      plain: stored.filter((entry) => !isSiteEntry(entry)),
      sites: stored.filter(isSiteEntry),
      all: [...stored],
    };
  }
  return { plain: [stored], sites: [], all: [stored] };
}

/** A stored field that holds at least one site entry (another site's data, maybe). */
const isContainer = (stored: unknown): boolean => Array.isArray(stored) && stored.some(isSiteEntry);

/** The value a site sees for one site-specific field, or undefined when it has none. */
export function valueForSite(stored: unknown, siteId: number): unknown {
  const { plain, sites } = partsOf(stored);
  const own = sites.find((entry) => entry.siteId === siteId);
  if (own !== undefined) return own.value;
  return plain[0];
}

/**
 * The user's extraData as one site sees it. A field stored as a container (it holds `{value, siteId}`
 * entries) shows this site's entry, else the plain fallback, else nothing, WHATEVER this site's config
 * says: declaring a field not site-specific must not reveal another site's entries. Other fields that
 * are not site-specific are returned as stored.
 */
export function readForSite(
  stored: Record<string, unknown>,
  siteId: number,
  fields: Set<string>,
): Record<string, unknown> {
  if (!isPlainObject(stored)) return {};
  const view: [string, unknown][] = [];
  for (const [field, value] of safeEntries(stored)) {
    if (!fields.has(field) && !isContainer(value)) {
      view.push([field, value]);
      continue;
    }
    const forSite = valueForSite(value, siteId);
    if (forSite !== undefined) view.push([field, forSite]);
  }
  return Object.fromEntries(view);
}

/**
 * The new stored extraData after one site's partial update. For a site-specific field only this
 * site's entry changes (null removes just that entry); other sites' entries and the plain fallback
 * stay. A field stored as a plain value that is now site-specific keeps that value as the fallback
 * (spec rules 5 and 6: the generic value serves as default). Other fields are set plainly; null
 * removes them. A plain write never drops another site's entries: on a container it sets the plain
 * fallback (null removes it) and drops this site's own entry, so this site reads what it wrote while
 * the other sites keep theirs. Returns a new object; `stored` is not changed.
 */
export function writeForSite(
  stored: Record<string, unknown>,
  patch: Record<string, unknown>,
  siteId: number,
  fields: Set<string>,
): Record<string, unknown> {
  const result = new Map<string, unknown>(isPlainObject(stored) ? safeEntries(stored) : []);
  if (!isPlainObject(patch)) return Object.fromEntries(result);
  for (const [field, value] of safeEntries(patch)) {
    if (value === undefined) continue;
    const next = fields.has(field) ? writeSiteValue(result.get(field), value, siteId) : writePlainValue(result.get(field), value, siteId);
    if (next === undefined || next === null) result.delete(field);
    else result.set(field, next);
  }
  result.delete(FORBIDDEN_KEY);
  return Object.fromEntries(result);
}

/**
 * One field this site does not keep site-specific, after it sets `value` (null: removes the fallback).
 * Other sites' entries stay; this site's own entry goes, else it would hide the value just written.
 */
function writePlainValue(stored: unknown, value: unknown, siteId: number): unknown {
  if (!isContainer(stored)) return value;
  const others = (stored as unknown[]).filter((item): item is SiteEntry => isSiteEntry(item) && item.siteId !== siteId);
  if (others.length === 0) return value;
  return value === null ? others : [value, ...others];
}

/** One site-specific field after this site sets `value` (null: removes this site's entry). */
function writeSiteValue(stored: unknown, value: unknown, siteId: number): unknown {
  const { all } = partsOf(stored);
  const entry: SiteEntry | undefined = value === null ? undefined : { value, siteId };
  let placed = false;
  const next: unknown[] = [];
  for (const item of all) {
    if (!(isSiteEntry(item) && item.siteId === siteId)) {
      next.push(item);
      continue;
    }
    // Replace this site's first entry in place; drop duplicates an earlier writer may have left.
    if (entry !== undefined && !placed) next.push(entry);
    placed = true;
  }
  if (entry !== undefined && !placed) next.push(entry);

  if (next.some(isSiteEntry)) return next;
  // No site entries left: collapse to the fallback every site read before, or remove the field.
  return next[0];
}
