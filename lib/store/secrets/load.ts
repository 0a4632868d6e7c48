/**
 * Reads the secrets a function's access class names from the stage's secret store and hands them to
 * lib/config/secrets.ts, where the code reads them with secret(). The store is SSM Parameter Store:
 * SecureString parameters under the stage's path (SECRETS_PATH), all of a class's fetched in one
 * GetParameters call through a Powertools Parameters provider (./parameter-provider.ts), decrypted,
 * and cached for SECRETS_MAX_AGE_SECONDS: a rotated value reaches every warm container within that
 * time. Called before a request is handled: request setup, the jobs, the OpenStad function.
 */
import { env } from '#lib/config/env';
import { SECRETS, type SecretName } from '#lib/config/secret-values';
import { assertSecretsUsable, heldSecretsUsableUntil, secretsHeld, useLocalSecrets, useStoredSecrets } from '#lib/config/secrets';
import { SecretParameters } from '#lib/store/secrets/parameter-provider';

/** How long a fetched value is used before the store is asked again. */
export const SECRETS_MAX_AGE_SECONDS = 300;

/**
 * A `withinMaxAgeOnly` secret (the vote keys) is fetched again this long before its held value stops
 * being usable, rather than from the cache: a request then has this long to use it.
 */
const REFETCH_MARGIN_MS = 15_000;

/** One provider per set of names: a function has one access class, so in practice one. */
const providers = new Map<string, SecretParameters>();

async function fromStore(path: string, names: readonly SecretName[], forceFetch: boolean): Promise<{ raw: Record<SecretName, string>; fetchedAt: number }> {
  const id = names.join(',');
  let provider = providers.get(id);
  if (!provider) providers.set(id, (provider = new SecretParameters(names.map((name) => `${path}${SECRETS[name].parameter}`))));
  const values = JSON.parse(String(await provider.get(`${path}#${id}`, { maxAge: SECRETS_MAX_AGE_SECONDS, forceFetch }))) as Record<string, string>;
  const raw = {} as Record<SecretName, string>;
  for (const name of names) raw[name] = String(values[`${path}${SECRETS[name].parameter}`] ?? '');
  return { raw, fetchedAt: provider.fetchedAt ?? Date.now() };
}

export interface LoadOptions {
  /** Fetch now rather than from the cache (a job, once a run: its run then has a whole max age of values fetched at its start). */
  refetch?: boolean;
}

/**
 * Makes the secrets `names` (the function's access class, lib/config/access-classes.ts) readable for
 * this invocation: on a deployed stage the cached values, fetched again once older than the max age;
 * only these are fetched (IAM grants no other), so secret() of any other name throws there. A failed
 * refresh is handed to `onRefreshFailed` (the caller logs it) and keeps the values the container has,
 * except those of the vote keys (`withinMaxAgeOnly`), never used past the max age of their fetch: then
 * it throws 503 ServiceUnavailable (the key route answers it; the checkpoint job's run fails, signing
 * nothing). A cold start that cannot read them fails, and the invocation with it. Locally every secret
 * comes from the environment.
 */
export async function loadSecrets(names: readonly SecretName[], onRefreshFailed?: (error: unknown) => void, options: LoadOptions = {}): Promise<void> {
  const { secretsPath, isLocalStage } = env();
  if (isLocalStage || !secretsPath) {
    useLocalSecrets();
    return;
  }
  const until = heldSecretsUsableUntil();
  const bounded = names.some((name) => 'withinMaxAgeOnly' in SECRETS[name]);
  const forceFetch = options.refetch === true || (bounded && until !== undefined && Date.now() > until - REFETCH_MARGIN_MS);
  try {
    const { raw, fetchedAt } = await fromStore(secretsPath, names, forceFetch);
    useStoredSecrets(names, raw, fetchedAt + SECRETS_MAX_AGE_SECONDS * 1000);
  } catch (error) {
    if (!secretsHeld()) throw error;
    onRefreshFailed?.(error);
    assertSecretsUsable(names);
  }
}
