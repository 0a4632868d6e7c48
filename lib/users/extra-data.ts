/**
 * User extraData checks: the shared engine against `config.users.extraData` and
 * `users.extraDataMustBeDefined`, plus the two rules that are only about users.
 */
import { EXTRA_DATA_VALUE_MAX_NESTING, isPlainObject, validateExtraData } from '#lib/extra-data/index';
import { firstUnstorablePart } from '#lib/store/db/storable';
import { safeEntries } from '#lib/extra-data/plain-object';
import { validationError, type ErrorDetail } from '#lib/errors';
import type { SiteConfig } from '#lib/sites/config-defaults';
import { isSiteEntry } from '#lib/users/site-specific';
import { SITE_RECORD_FIELD_SET } from '#lib/users/auth-fields';
import type { FieldDefinition } from '#schemas/extra-data-definition';

/**
 * `config.users.extraData.<field>` may hold only the site-specific switch (no `type`): such a field is
 * defined, so `extraDataMustBeDefined` lets it through, but there is no type to check it against.
 */
function splitDefinitions(config: SiteConfig) {
  const typed: Record<string, FieldDefinition> = {};
  const untyped = new Set<string>();
  const all = isPlainObject(config.users.extraData) ? config.users.extraData : {};
  for (const [field, def] of safeEntries(all)) {
    if (isPlainObject(def) && typeof def.type === 'string') typed[field] = def as FieldDefinition;
    else untyped.add(field);
  }
  return { typed, untyped };
}

/** Throws the 400 ValidationError, with one detail per failing field, for a bad extraData patch. */
export function assertValidUserExtraData(patch: unknown, config: SiteConfig): asserts patch is Record<string, unknown> | undefined {
  if (patch === undefined) return;
  if (!isPlainObject(patch)) throw validationError([{ path: 'extraData', message: 'must be an object' }]);
  const details: ErrorDetail[] = [];
  const { typed, untyped } = splitDefinitions(config);
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (SITE_RECORD_FIELD_SET.has(key)) {
      // These five live in the auth server's extraData, but belong to the record: one place to set them.
      details.push({ path: `extraData.${key}`, message: `is a user field; send ${key} at the top level` });
    } else if (isSiteEntry(value) || (Array.isArray(value) && value.some(isSiteEntry))) {
      // `{value, siteId}` entries are the API's storage format; a client writing them could set other sites' values.
      details.push({ path: `extraData.${key}`, message: 'must not contain {value, siteId} entries; the API keeps site values apart itself' });
    } else if (!untyped.has(key)) {
      checked[key] = value;
    } else if (value !== null) {
      // Defined without a type, so not checked, but it must still fit in the table.
      const problem = firstUnstorablePart(value, `extraData.${key}`, EXTRA_DATA_VALUE_MAX_NESTING);
      if (problem) details.push(problem);
    }
  }
  details.push(...validateExtraData(checked, typed, config.users.extraDataMustBeDefined === true));
  if (details.length > 0) throw validationError(details);
}
