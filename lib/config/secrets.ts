/**
 * The secrets of lib/config/secret-values.ts as the code reads them (DESIGN habit 19).
 *
 * Deployed stages: SSM Parameter Store SecureString parameters under the stage's path, all fetched
 * in one GetParameters call through a Powertools Parameters provider (lib/config/secret-parameters.ts),
 * decrypted, and cached for
 * SECRETS_MAX_AGE_SECONDS: a rotated value reaches every warm container within that time, and no
 * value is in the function's environment, the template or the artifact, so `serverless rollback`
 * cannot bring an old one back. Only the functions whose access class reads secrets may read the
 * parameters their class names (IAM, lib/config/access-classes.ts); they call loadSecrets() before a request is handled
 * (lib/http/handler.ts, lib/jobs/lambda.ts) and read the values synchronously with secret().
 *
 * Local stages: from the environment (JWT_SECRET, API_SERVICE_TOKENS, VOTE_CHAIN_KEY, VOTE_SIGNING_KEY),
 * dev defaults when unset.
 */
import { env } from '#lib/config/env';
import { SECRETS, type SecretName, type SecretValue } from '#lib/config/secret-values';
import { SecretParameters } from '#lib/config/secret-parameters';

/** How long a fetched value is used before the store is asked again. */
export const SECRETS_MAX_AGE_SECONDS = 300;

type Snapshot = { [N in SecretName]?: SecretValue<N> };

let snapshot: Snapshot | undefined;
/** The raw values the snapshot was parsed from: a refresh that brings the same text parses nothing. */
let parsedFrom: string | undefined;

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

/** One provider per set of names: a function has one access class, so in practice one. */
const providers = new Map<string, SecretParameters>();

async function fromStore(path: string, names: readonly SecretName[]): Promise<Snapshot> {
  const id = names.join(',');
  let provider = providers.get(id);
  if (!provider) providers.set(id, (provider = new SecretParameters(names.map((name) => `${path}${SECRETS[name].parameter}`))));
  const values = JSON.parse(String(await provider.get(`${path}#${id}`, { maxAge: SECRETS_MAX_AGE_SECONDS }))) as Record<string, string>;
  const raw = {} as Record<SecretName, string>;
  for (const name of names) raw[name] = String(values[`${path}${SECRETS[name].parameter}`] ?? '');
  const key = JSON.stringify(raw);
  if (snapshot && key === parsedFrom) return snapshot;
  const next = parseAll(names, raw, false);
  parsedFrom = key;
  return next;
}

/**
 * Makes the secrets `names` (the function's access class, lib/config/access-classes.ts) readable for
 * this invocation: on a deployed stage the cached values, fetched again once older than the max age;
 * only these are fetched (IAM grants no other), so secret() of any other name throws there. A failed
 * refresh keeps the values the container has and is handed to `onRefreshFailed` (the caller logs it:
 * the foundation does not import the logger); a cold start that cannot read them fails, and the
 * invocation with it. Locally every secret comes from the environment.
 */
export async function loadSecrets(names: readonly SecretName[], onRefreshFailed?: (error: unknown) => void): Promise<void> {
  const { secretsPath, isLocalStage } = env();
  if (isLocalStage || !secretsPath) {
    snapshot ??= fromLocalEnvironment();
    return;
  }
  try {
    snapshot = await fromStore(secretsPath, names);
  } catch (error) {
    if (!snapshot) throw error;
    onRefreshFailed?.(error);
  }
}

/** A secret's value; on a deployed stage only after loadSecrets() with a list that names it. */
export function secret<N extends SecretName>(name: N): SecretValue<N> {
  if (!snapshot) {
    if (env().secretsPath !== undefined) throw new Error(`secret ${name} read before loadSecrets(): this function's access class reads no secrets`);
    snapshot = fromLocalEnvironment();
  }
  const value = snapshot[name];
  if (value === undefined) throw new Error(`secret ${name} is not one this function's access class reads`);
  return value as SecretValue<N>;
}
