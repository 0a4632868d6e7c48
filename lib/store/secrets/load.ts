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
import { secretsHeld, useLocalSecrets, useStoredSecrets } from '#lib/config/secrets';
import { SecretParameters } from '#lib/store/secrets/parameter-provider';

/** How long a fetched value is used before the store is asked again. */
export const SECRETS_MAX_AGE_SECONDS = 300;

/** One provider per set of names: a function has one access class, so in practice one. */
const providers = new Map<string, SecretParameters>();

async function fromStore(path: string, names: readonly SecretName[]): Promise<Record<SecretName, string>> {
  const id = names.join(',');
  let provider = providers.get(id);
  if (!provider) providers.set(id, (provider = new SecretParameters(names.map((name) => `${path}${SECRETS[name].parameter}`))));
  const values = JSON.parse(String(await provider.get(`${path}#${id}`, { maxAge: SECRETS_MAX_AGE_SECONDS }))) as Record<string, string>;
  const raw = {} as Record<SecretName, string>;
  for (const name of names) raw[name] = String(values[`${path}${SECRETS[name].parameter}`] ?? '');
  return raw;
}

/**
 * Makes the secrets `names` (the function's access class, lib/config/access-classes.ts) readable for
 * this invocation: on a deployed stage the cached values, fetched again once older than the max age;
 * only these are fetched (IAM grants no other), so secret() of any other name throws there. A failed
 * refresh keeps the values the container has and is handed to `onRefreshFailed` (the caller logs it);
 * a cold start that cannot read them fails, and the invocation with it. Locally every secret comes
 * from the environment.
 */
export async function loadSecrets(names: readonly SecretName[], onRefreshFailed?: (error: unknown) => void): Promise<void> {
  const { secretsPath, isLocalStage } = env();
  if (isLocalStage || !secretsPath) {
    useLocalSecrets();
    return;
  }
  try {
    useStoredSecrets(names, await fromStore(secretsPath, names));
  } catch (error) {
    if (!secretsHeld()) throw error;
    onRefreshFailed?.(error);
  }
}
