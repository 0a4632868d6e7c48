/**
 * The secrets of lib/config/secret-values.ts as the code reads them (DESIGN habit 19): secret() gives
 * a value synchronously from the values this container holds.
 *
 * Deployed stages: the values come from the secret store (SSM Parameter Store SecureString parameters
 * under the stage's path), read by lib/store/secrets/load.ts before a request is handled (request
 * setup, the jobs, the OpenStad function) and handed here to be checked and parsed. No value is in the
 * function's environment, the template or the artifact, so `serverless rollback` cannot bring an old
 * one back. Only the functions whose access class reads secrets may read the parameters their class
 * names (IAM, lib/config/access-classes.ts). This module talks to no service: only the store does.
 *
 * Local stages: from the environment (JWT_SECRET, API_SERVICE_TOKENS, VOTE_CHAIN_KEY, VOTE_SIGNING_KEY),
 * dev defaults when unset.
 */
import { env } from '#lib/config/env';
import { SECRETS, type SecretName, type SecretValue } from '#lib/config/secret-values';
import { serviceUnavailable } from '#lib/errors';

type Snapshot = { [N in SecretName]?: SecretValue<N> };

let snapshot: Snapshot | undefined;
/** The raw values the snapshot was parsed from: a refresh that brings the same text parses nothing. */
let parsedFrom: string | undefined;
/** Until when (ms) the held values of a `withinMaxAgeOnly` secret may be used: their fetch plus the cache's max age. */
let usableUntil: number | undefined;

/** When to ask again after a refusal for stale values (`Retry-After`): the store may answer by then. */
export const SECRET_STORE_RETRY_AFTER_SECONDS = 30;

/**
 * A `withinMaxAgeOnly` secret whose held value is older than the cache's max age (the store has not
 * answered since): refused, so a warm container never signs with a seed the rotation has retired nor
 * serves a key list older than it promised. The key route answers 503 with `Retry-After`; the job fails
 * its run (nothing signed) and the failure is alarmed.
 */
const staleSecret = (name: SecretName) =>
  Object.assign(serviceUnavailable('The vote record keys cannot be read now; please retry shortly', SECRET_STORE_RETRY_AFTER_SECONDS), {
    cause: new Error(`secret ${name}: held past the secrets cache's max age (the secret store did not answer); not used`),
  });

function assertUsable(name: SecretName): void {
  if (usableUntil !== undefined && 'withinMaxAgeOnly' in SECRETS[name] && Date.now() > usableUntil) throw staleSecret(name);
}

/** Throws (503 ServiceUnavailable) when one of `names` may no longer be used: see `withinMaxAgeOnly`. */
export function assertSecretsUsable(names: readonly SecretName[]): void {
  for (const name of names) assertUsable(name);
}

/** Until when (ms epoch) the held values may be used by a `withinMaxAgeOnly` secret; undefined when none are held from the store. */
export const heldSecretsUsableUntil = (): number | undefined => usableUntil;

const ALL_NAMES = Object.keys(SECRETS) as SecretName[];

function parseAll(names: readonly SecretName[], raw: Partial<Record<SecretName, string>>, allowDevValues: boolean): Snapshot {
  const parsed = {} as Record<SecretName, unknown>;
  for (const name of names) parsed[name] = SECRETS[name].parse(raw[name] ?? '', { allowDevValues });
  return parsed as Snapshot;
}

function fromLocalEnvironment(): Snapshot {
  const { JWT_SECRET, API_SERVICE_TOKENS, VOTE_CHAIN_KEY, VOTE_SIGNING_KEY } = process.env;
  const source = { JWT_SECRET, API_SERVICE_TOKENS, VOTE_CHAIN_KEY, VOTE_SIGNING_KEY };
  const raw = {} as Record<SecretName, string>;
  for (const name of ALL_NAMES) raw[name] = SECRETS[name].local(source);
  return parseAll(ALL_NAMES, raw, true);
}

/** Locally: every secret from the environment, read once. */
export function useLocalSecrets(): void {
  snapshot ??= fromLocalEnvironment();
}

/**
 * A deployed stage: the values of `names` as read from the store, checked and parsed (a missing, weak
 * or dev value throws, and the values held before stay). The same text as last time parses nothing.
 * `until` (ms epoch): the fetch's start plus the cache's max age, when a `withinMaxAgeOnly` secret stops being used.
 */
export function useStoredSecrets(names: readonly SecretName[], raw: Record<SecretName, string>, until?: number): void {
  const key = JSON.stringify(raw);
  if (!(snapshot && key === parsedFrom)) {
    snapshot = parseAll(names, raw, false);
    parsedFrom = key;
  }
  usableUntil = until;
}

/** Whether this container holds values already (a failed refresh then keeps them). */
export const secretsHeld = (): boolean => snapshot !== undefined;

/** A secret's value; on a deployed stage only after the store's loadSecrets() with a list that names it. */
export function secret<N extends SecretName>(name: N): SecretValue<N> {
  if (!snapshot) {
    if (env().secretsPath !== undefined) throw new Error(`secret ${name} read before loadSecrets(): this function's access class reads no secrets`);
    snapshot = fromLocalEnvironment();
  }
  const value = snapshot[name];
  if (value === undefined) throw new Error(`secret ${name} is not one this function's access class reads`);
  assertUsable(name);
  return value as SecretValue<N>;
}
