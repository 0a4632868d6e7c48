import { FORBIDDEN_KEY, isPlainObject } from '#lib/extra-data/plain-object';

/**
 * The extraData to store after a create or a partial update (CONTRACT: PUT merges extraData key by
 * key; `null` always removes a key). On create call `mergeExtraData(undefined, body.extraData)`, so a
 * null is simply not stored. Validate the patch first (validateExtraData); this only combines.
 *
 * The merge is top level only: a nested `object` value replaces the old one as a whole. That value
 * was validated as a whole against its `subset`, arrays (`images`, `arrayOfStrings`) cannot be merged
 * meaningfully anyway, and a deep merge would make a nested null mean "remove" here but "store null"
 * where `allowNull` allows it. One level keeps "what you send for a key is what is stored" true.
 *
 * Returns a new object; nested values are shared with the inputs, not copied.
 */
export function mergeExtraData(
  existing: Record<string, unknown> | undefined,
  patch: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const result = new Map<string, unknown>();
  if (isPlainObject(existing)) {
    for (const [key, value] of Object.entries(existing)) result.set(key, value);
  }
  if (isPlainObject(patch)) {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue; // absent, as in a partial update
      if (value === null) result.delete(key);
      else result.set(key, value);
    }
  }
  result.delete(FORBIDDEN_KEY);
  // fromEntries defines own properties, so no key can reach a prototype.
  return Object.fromEntries(result);
}
