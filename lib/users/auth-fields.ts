/**
 * How a site user maps onto the auth server's user (spec "Known fields per resource": `listableByRole`,
 * `detailsViewableByRole`, `nickName`, `gender` and `signedUpForNewsletter` exist on the API record and
 * are stored inside the auth server user's extraData as site-specific data).
 *
 * The local cache keeps those five as top-level fields with this site's value, and `extraData` as
 * the auth server holds it minus those five (every site's entries: reads filter per site, writes change
 * only this site's entry, lib/users/site-specific.ts).
 */
import { isPlainObject } from '#lib/extra-data/index';
import { safeEntries } from '#lib/extra-data/plain-object';
import { valueForSite, writeForSite } from '#lib/users/site-specific';
import type { AuthServerUser } from '#schemas/oauth';

const SITE_RECORD_FIELDS = ['nickName', 'listableByRole', 'detailsViewableByRole', 'gender', 'signedUpForNewsletter'] as const;
export const SITE_RECORD_FIELD_SET: ReadonlySet<string> = new Set(SITE_RECORD_FIELDS);

export type SiteRecordValues = {
  nickName: string | null;
  listableByRole: string | null;
  detailsViewableByRole: string | null;
  gender: string | null;
  signedUpForNewsletter: boolean | null;
};

interface CachedAuthFields extends SiteRecordValues {
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  extraData: Record<string, unknown>;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : null);

/** This site's record fields out of a (full, all-sites) auth-server extraData. Odd types read as null. */
function siteRecordValues(raw: Record<string, unknown>, siteId: number): SiteRecordValues {
  return {
    nickName: str(valueForSite(raw.nickName, siteId)),
    listableByRole: str(valueForSite(raw.listableByRole, siteId)),
    detailsViewableByRole: str(valueForSite(raw.detailsViewableByRole, siteId)),
    gender: str(valueForSite(raw.gender, siteId)),
    signedUpForNewsletter: bool(valueForSite(raw.signedUpForNewsletter, siteId)),
  };
}

/** extraData without the five record fields. */
function withoutRecordFields(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(safeEntries(raw).filter(([key]) => !SITE_RECORD_FIELD_SET.has(key)));
}

/** What the local cache of one site stores of an auth-server user. */
export function cacheFieldsFromAuth(user: AuthServerUser, siteId: number): CachedAuthFields {
  const raw = isPlainObject(user.extraData) ? user.extraData : {};
  return {
    email: user.email ?? null,
    firstName: user.firstName ?? user.given_name ?? null,
    lastName: user.lastName ?? user.family_name ?? null,
    extraData: withoutRecordFields(raw),
    ...siteRecordValues(raw, siteId),
  };
}

/**
 * The whole auth-server extraData after this site's change: `extraPatch` per the site-specific rules of
 * `fields`, the record fields always as this site's entries. Other sites' entries stay.
 */
export function authExtraDataAfter(
  raw: Record<string, unknown>,
  extraPatch: Record<string, unknown> | undefined,
  recordPatch: Partial<SiteRecordValues>,
  siteId: number,
  fields: Set<string>,
): Record<string, unknown> {
  const afterExtra = writeForSite(isPlainObject(raw) ? raw : {}, extraPatch ?? {}, siteId, fields);
  return writeForSite(afterExtra, recordPatch, siteId, new Set(SITE_RECORD_FIELDS));
}
