/**
 * Secrets in a site's config are write-only for every caller, service tokens included (CONTRACT
 * "Decided details, security"): reads show `********`, and a write that sends `********` back keeps
 * the stored value, so a config read, edited and written back never loses its client secret.
 *
 * Which keys are secrets is declared once, in the config schema (schemas/site-config.ts marks them
 * `writeOnly`); the paths below are found by walking that schema, so a key marked there is masked
 * and kept here without another list to update.
 *
 * A secret the API sends somewhere (the OAuth client secret goes to the entry's `auth-server-url`)
 * names that sibling in the schema (`x-sent-to`): a stored secret is kept only while it still goes
 * where it was written for. Pointing the entry at another server needs the secret sent again, else
 * a site admin could have the API hand a client secret shared with other sites to a server of
 * their own, which write-only exists to prevent.
 */
import { isDeepStrictEqual } from 'node:util';
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { SECRET_MASK, siteConfigSchema } from '#schemas/site-config';
import { isPlainObject } from '#schemas/stored/read';
import { errorPath, validationError, type ErrorDetail } from '#lib/errors';

export { SECRET_MASK };

/** Any key of a record (`oauth.<name>`), any index of an array. */
export const ANY_KEY: unique symbol = Symbol('any key');
export const ANY_INDEX: unique symbol = Symbol('any index');
type PathPattern = ReadonlyArray<string | typeof ANY_KEY | typeof ANY_INDEX>;

interface Def {
  type: string;
  innerType?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  valueType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  in?: z.core.$ZodType;
}

/** A secret of a schema: where it is, and the sibling keys naming where the API sends it. */
interface SecretDeclaration {
  path: PathPattern;
  sentTo: readonly string[];
}

/** Every `writeOnly` value of a schema (recursive schemas are followed once per branch). */
export function writeOnlySecrets(schema: z.core.$ZodType, at: PathPattern = [], seen: ReadonlySet<z.core.$ZodType> = new Set()): SecretDeclaration[] {
  const meta = z.globalRegistry.get(schema) as { writeOnly?: boolean; 'x-sent-to'?: readonly string[] } | undefined;
  if (meta?.writeOnly === true) return [{ path: at, sentTo: meta['x-sent-to'] ?? [] }];
  if (seen.has(schema)) return [];
  const inner = new Set(seen).add(schema);
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return writeOnlySecrets(def.innerType!, at, inner);
    case 'pipe':
      return writeOnlySecrets(def.in!, at, inner);
    case 'object':
      return Object.entries(def.shape!).flatMap(([key, child]) => writeOnlySecrets(child, [...at, key], inner));
    case 'record':
      return writeOnlySecrets(def.valueType!, [...at, ANY_KEY], inner);
    case 'array':
      return writeOnlySecrets(def.element!, [...at, ANY_INDEX], inner);
    case 'union':
      return def.options!.flatMap((option) => writeOnlySecrets(option, at, inner));
    default:
      return [];
  }
}

/** The paths of every `writeOnly` value in a schema. */
export const writeOnlyPaths = (schema: z.core.$ZodType): PathPattern[] => writeOnlySecrets(schema).map((secret) => secret.path);

/** `oauth.*.auth-client-secret`, `basicAuth.password`, and whatever else the schema marks. */
const SECRETS: readonly SecretDeclaration[] = writeOnlySecrets(siteConfigSchema);
export const SECRET_PATHS: readonly PathPattern[] = SECRETS.map((secret) => secret.path);

type Segment = string | number;
type Holder = Record<string | number, unknown>;

/** Calls `visit` for every value present at a pattern: its holder, its key and its concrete path. */
function eachAt(node: unknown, pattern: PathPattern, at: Segment[], visit: (holder: Holder, key: Segment, path: Segment[]) => void): void {
  const [head, ...rest] = pattern;
  if (head === undefined) return;
  let keys: Segment[];
  if (head === ANY_INDEX) keys = Array.isArray(node) ? node.map((_, i) => i) : [];
  else if (!isPlainObject(node)) keys = [];
  else keys = head === ANY_KEY ? Object.keys(node) : Object.hasOwn(node, head) ? [head] : [];
  for (const key of keys) {
    const child = (node as Holder)[key];
    if (rest.length === 0) {
      if (child !== undefined && child !== null) visit(node as Holder, key, [...at, key]);
    } else {
      eachAt(child, rest, [...at, key], visit);
    }
  }
}

function valueAt(node: unknown, path: readonly Segment[]): unknown {
  let current = node;
  for (const key of path) {
    if (typeof key === 'number' ? !Array.isArray(current) : !isPlainObject(current)) return undefined;
    if (!Object.hasOwn(current as object, key)) return undefined;
    current = (current as Holder)[key];
  }
  return current;
}

/** Whether a secret of the config passes the test (reads of configs without one copy nothing). */
const anySecret = (config: unknown, test: (value: unknown) => boolean): boolean => {
  let found = false;
  for (const pattern of SECRET_PATHS) eachAt(config, pattern, [], (holder, key) => (found ||= test(holder[key])));
  return found;
};
const holdsSecrets = (config: unknown) => anySecret(config, () => true);

/** Whether a config sent by a client holds the mask where a secret goes (it then depends on what is stored). */
export const sendsMask = (config: unknown): boolean => anySecret(config, (value) => value === SECRET_MASK);

/** The config as every read shows it: each secret replaced by the mask. The input is not changed. */
export function maskSecrets<T>(config: T): T {
  if (!holdsSecrets(config)) return config;
  const copy = structuredClone(config);
  for (const pattern of SECRET_PATHS) eachAt(copy, pattern, [], (holder, key) => (holder[key] = SECRET_MASK));
  return copy;
}

/**
 * The config to store (`next`: as a client sent it, or a merge patch applied to the stored one):
 * every secret sent as the mask takes the value stored at the same path. A mask where nothing is
 * stored (a renamed oauth entry, a new site) cannot be kept: 400 naming the path, since storing the
 * mask itself would break the login it configures. A stored secret whose destination changed (its
 * `x-sent-to` siblings) is not kept either unless the client sent the secret itself (`sent`: what
 * the client sent, by default `next`): 400 naming the path. The input is not changed.
 */
export function keepStoredSecrets<T>(next: T, stored: unknown, options: { sent?: unknown; prefix?: string } = {}): T {
  const prefix = options.prefix ?? 'config';
  const sent = 'sent' in options ? options.sent : next;
  const out = sendsMask(next) ? structuredClone(next) : next;
  const details: ErrorDetail[] = [];
  for (const { path: pattern, sentTo } of SECRETS) {
    eachAt(out, pattern, [], (holder, key, path) => {
      if (holder[key] === SECRET_MASK) {
        const kept = valueAt(stored, path);
        if (kept === undefined || kept === null) {
          details.push({ path: errorPath(path, prefix), message: `is the mask ${SECRET_MASK} of a stored secret, but none is stored here: send the secret itself` });
          return;
        }
        holder[key] = kept;
      }
      if (sentTo.length === 0 || holder[key] !== valueAt(stored, path)) return;
      const own = valueAt(sent, path);
      if (typeof own === 'string' && own !== SECRET_MASK) return;
      const entry = path.slice(0, -1);
      const moved = sentTo.filter((sibling) => !isDeepStrictEqual(valueAt(out, [...entry, sibling]), valueAt(stored, [...entry, sibling])));
      if (moved.length > 0) {
        details.push({
          path: errorPath(path, prefix),
          message: `keeps the stored secret, but ${moved.join(', ')} changed: send the secret itself (a stored secret only goes where it was written for)`,
        });
      }
    });
  }
  if (details.length > 0) throw validationError(details, 'Invalid body');
  return out;
}
