import { childPath, validationError, type ErrorDetail } from '#lib/errors';
import { EXTRA_DATA_MAX_DEPTH, type FieldDefinition } from '#schemas/extra-data-definition';
import { FORBIDDEN_KEY, isPlainObject } from '#lib/extra-data/plain-object';
import { firstUnstorablePart } from '#lib/store/db/storable';

/** More details than this would only bloat the 400 (a 256 KiB array of numbers gives 100k+ paths). */
export const MAX_ERROR_DETAILS = 100;

/**
 * Maps and lists a value of an undefined (unchecked) field may nest, the value itself included. Far
 * above real use, and with the extraData object around it and a user's per-site container (two more
 * levels, lib/users/site-specific.ts) still below DynamoDB's limit (lib/store/db/storable.ts).
 */
export const EXTRA_DATA_VALUE_MAX_NESTING = 20;

/**
 * Checks an extraData value against a site's field definitions (spec "extraData of ideas and
 * articles", CONTRACT "Decided details"). Returns one ErrorDetail per failing path, in dot form
 * (`extraData.theme`, `extraData.address.street`, `extraData.tags[2]`); an empty array means valid.
 *
 * Rules, as in OpenStad:
 * - a key with a definition is always checked against it, whatever `mustBeDefined` says;
 * - a key without one passes unchecked, unless `mustBeDefined` (then it is an error);
 * - `null` removes a key and is accepted, except when `mustBeDefined` and the definition says
 *   `allowNull: false`. Inside `object` values a null is stored as is, so there the subset's
 *   `allowNull: false` always refuses it.
 * - an unchecked value must still be storable: numbers within +-(2^53 - 1) and not below 1e-130 in
 *   size, no empty keys, at most EXTRA_DATA_VALUE_MAX_NESTING levels (lib/store/db/storable.ts). Checked
 *   fields are storable by their types.
 *
 * Never throws on odd JSON input: the value is untrusted request data and the definitions may come
 * from an old, unvalidated config. `__proto__` is never a valid field name (see plain-object.ts).
 * `undefined` means "no extraData sent": nothing to check.
 */
export function validateExtraData(
  value: unknown,
  definitions: Record<string, FieldDefinition> | undefined,
  mustBeDefined: boolean,
  basePath = 'extraData',
): ErrorDetail[] {
  if (value === undefined) return [];
  // Parsed JSON cannot make this throw; if it does, the fault is ours (a bug, a code-made value), so it
  // goes up as an internal error: logged, and answered 500 without details, never a client's 400.
  return collectErrors(value, definitions, mustBeDefined, basePath);
}

function collectErrors(
  value: unknown,
  definitions: Record<string, FieldDefinition> | undefined,
  mustBeDefined: boolean,
  basePath: string,
): ErrorDetail[] {
  const errors = new Collector();
  if (!isPlainObject(value)) {
    errors.add(basePath, 'must be an object');
    return errors.list(basePath);
  }
  const defs = isPlainObject(definitions) ? definitions : undefined;
  for (const [key, fieldValue] of Object.entries(value)) {
    if (errors.full) break;
    const path = childPath(basePath, key);
    if (key === FORBIDDEN_KEY) {
      errors.add(path, 'is not an allowed field name');
      continue;
    }
    if (key === '') {
      errors.add(basePath, 'has an empty key, which cannot be stored');
      continue;
    }
    if (fieldValue === undefined) continue; // cannot come from JSON; treated as absent
    const def = definitionOf(defs, key);
    if (fieldValue === null) {
      if (mustBeDefined && def?.allowNull === false) errors.add(path, 'may not be null');
      continue;
    }
    if (def === undefined) {
      if (mustBeDefined) errors.add(path, 'is not defined in the site configuration');
      // Unchecked, but it must still fit in the table (numbers, keys, nesting).
      else {
        const problem = firstUnstorablePart(fieldValue, path, EXTRA_DATA_VALUE_MAX_NESTING);
        if (problem) errors.add(problem.path, problem.message);
      }
      continue;
    }
    checkField(fieldValue, def, path, 1, errors);
  }
  return errors.list(basePath);
}

/** Throws the 400 ValidationError when validateExtraData finds anything. */
export function assertValidExtraData(
  value: unknown,
  definitions: Record<string, FieldDefinition> | undefined,
  mustBeDefined: boolean,
  basePath = 'extraData',
): void {
  const details = validateExtraData(value, definitions, mustBeDefined, basePath);
  if (details.length > 0) throw validationError(details);
}

class Collector {
  private readonly details: ErrorDetail[] = [];
  private truncated = false;

  get full(): boolean {
    return this.truncated;
  }

  add(path: string, message: string): void {
    if (this.details.length >= MAX_ERROR_DETAILS) this.truncated = true;
    else this.details.push({ path, message });
  }

  list(basePath: string): ErrorDetail[] {
    if (!this.truncated) return this.details;
    return [...this.details, { path: basePath, message: `too many errors; only the first ${MAX_ERROR_DETAILS} are shown` }];
  }
}

/** Own-property lookup only: `definitions['constructor']` must not find Object.prototype's. */
function definitionOf(defs: Record<string, unknown> | undefined, key: string): FieldDefinition | undefined {
  if (defs === undefined || !Object.hasOwn(defs, key)) return undefined;
  // Anything that is not an object still counts as "defined"; checkField reports it as broken.
  return (isPlainObject(defs[key]) ? defs[key] : {}) as FieldDefinition;
}

function checkField(value: unknown, def: FieldDefinition, path: string, depth: number, errors: Collector): void {
  if (depth > EXTRA_DATA_MAX_DEPTH) {
    errors.add(path, 'is nested too deeply');
    return;
  }
  switch (def.type) {
    case 'boolean':
      if (typeof value !== 'boolean') errors.add(path, 'must be a boolean');
      return;
    case 'int':
      if (!Number.isSafeInteger(value)) errors.add(path, 'must be an integer');
      return;
    case 'string':
      if (typeof value !== 'string') errors.add(path, 'must be a string');
      return;
    case 'arrayOfStrings':
      checkArrayOfStrings(value, path, errors);
      return;
    case 'enum':
      checkEnum(value, def.values, path, errors);
      return;
    case 'object':
      checkObject(value, def.subset, path, depth, errors);
      return;
    default:
      // Fail closed: a broken definition (config saved before validation existed) must not let
      // arbitrary data through.
      errors.add(path, 'has an invalid definition in the site configuration');
  }
}

function checkArrayOfStrings(value: unknown, path: string, errors: Collector): void {
  if (!Array.isArray(value)) {
    errors.add(path, 'must be an array of strings');
    return;
  }
  for (let i = 0; i < value.length && !errors.full; i++) {
    if (typeof value[i] !== 'string') errors.add(childPath(path, i), 'must be a string');
  }
}

function checkEnum(value: unknown, values: unknown, path: string, errors: Collector): void {
  if (!Array.isArray(values)) {
    errors.add(path, 'has an invalid definition in the site configuration');
    return;
  }
  if (typeof value !== 'string' || !values.includes(value)) {
    errors.add(path, `must be one of: ${values.map(String).join(', ')}`);
  }
}

function checkObject(value: unknown, subset: unknown, path: string, depth: number, errors: Collector): void {
  if (!isPlainObject(subset)) {
    errors.add(path, 'has an invalid definition in the site configuration');
    return;
  }
  if (!isPlainObject(value)) {
    errors.add(path, 'must be an object');
    return;
  }
  // Keys of subset are allowed, none is required: the spec has no notion of a required field.
  for (const [key, nested] of Object.entries(value)) {
    if (errors.full) return;
    const nestedPath = childPath(path, key);
    const def = key === FORBIDDEN_KEY ? undefined : definitionOf(subset, key);
    if (def === undefined) {
      errors.add(nestedPath, 'is not a field of this object');
      continue;
    }
    if (nested === undefined) continue;
    if (nested === null) {
      if (def.allowNull === false) errors.add(nestedPath, 'may not be null');
      continue;
    }
    checkField(nested, def, nestedPath, depth + 1, errors);
  }
}
