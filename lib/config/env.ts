/**
 * Environment, read and validated once at cold start (DESIGN habit 5). Secrets are not in it on a
 * deployed stage: they come from the secret store (lib/store/secrets/load.ts); a deployed function that
 * finds one in its environment refuses to start, so a stale deploy script cannot put one back.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { DEV_JWT_SECRET, DEV_SERVICE_TOKEN } from '#lib/config/secret-values';

/** The stages that run without AWS (npm start, the tests): secrets from the environment, dev defaults allowed. */
const LOCAL_STAGES = new Set(['local', 'test']);
/** Variables that held secrets before the secret store; never set on a deployed stage. */
const SECRET_VARIABLES = ['JWT_SECRET', 'API_SERVICE_TOKENS'] as const;

const envSchema = z.object({
  STAGE: z._default(z.string().check(z.minLength(1)), 'local'),
  TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'participation-local'),
  /** Set only locally (DynamoDB Local); on AWS the SDK finds the regional endpoint itself. */
  DYNAMODB_ENDPOINT: z.union([z.optional(z.string().check(z.url())), z.pipe(z.literal(''), z.transform(() => undefined))]),
  AWS_REGION: z._default(z.string(), 'eu-west-1'),
  /** Deployed stages: the secret store's path of this stage (`/<service>/<stage>/`, serverless.yml). */
  SECRETS_PATH: z.optional(z.string().check(z.regex(/^\/[\w.-]+(\/[\w.-]+)*\/$/))),
  /** Lifetime of the JWTs issued at login, in seconds (default 7 days). */
  JWT_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 7 * 24 * 3600),
  /** The logger's levels (lib/log/logger.ts; serverless.yml maps them to Lambda's); tests run SILENT unless set. */
  LOG_LEVEL: z.optional(
    z.pipe(
      z.pipe(z.string(), z.transform((v) => v.toUpperCase())),
      z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT']),
    ),
  ),
  VITEST: z.optional(z.string()),
  /** This API's public base URL for the login's `redirect_uri` (lib/oauth/public-url.ts); else from Host. */
  PUBLIC_BASE_URL: z.optional(z.string()),
  /** Tests only: injected DynamoDB failures (lib/store/db/fault-injection.ts), e.g. `conflict=0.2,throttle=0.1`. */
  DYNAMO_FAULTS: z.optional(z.string()),
});

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'CRITICAL' | 'SILENT';

interface Env {
  stage: string;
  isLocalStage: boolean;
  tableName: string;
  dynamoEndpoint: string | undefined;
  region: string;
  /** Where the secrets are read on a deployed stage (undefined on the local stages). */
  secretsPath: string | undefined;
  jwtTtlSeconds: number;
  logLevel: LogLevel;
  publicBaseUrl: string | undefined;
  /** Tests only; refused on a deployed stage. */
  dynamoFaults: string | undefined;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const raw = envSchema.parse(source);
  const isLocalStage = LOCAL_STAGES.has(raw.STAGE);
  if (!isLocalStage) {
    const inEnvironment = SECRET_VARIABLES.filter((name) => source[name] !== undefined);
    if (inEnvironment.length) throw new Error(`${inEnvironment.join(' and ')} set in the environment of stage "${raw.STAGE}": secrets come from the secret store (docs/deploy.md); refusing to start`);
    if (!raw.SECRETS_PATH) throw new Error(`SECRETS_PATH is not set on stage "${raw.STAGE}" (serverless.yml sets it); refusing to start`);
  }
  return {
    stage: raw.STAGE,
    isLocalStage,
    tableName: raw.TABLE_NAME,
    dynamoEndpoint: raw.DYNAMODB_ENDPOINT,
    region: raw.AWS_REGION,
    secretsPath: isLocalStage ? undefined : raw.SECRETS_PATH,
    jwtTtlSeconds: raw.JWT_TTL_SECONDS,
    logLevel: raw.LOG_LEVEL ?? (raw.VITEST ? 'SILENT' : 'INFO'),
    publicBaseUrl: raw.PUBLIC_BASE_URL || undefined,
    dynamoFaults: faultsFor(raw.STAGE, isLocalStage, raw.DYNAMO_FAULTS),
  };
}

/** Fault injection breaks requests on purpose: never on a deployed stage. */
function faultsFor(stage: string, isLocalStage: boolean, spec: string | undefined): string | undefined {
  if (!spec) return undefined;
  if (!isLocalStage) throw new Error(`DYNAMO_FAULTS is set on stage "${stage}"; it is for tests only; refusing to start`);
  return spec;
}

export const devDefaults = { jwtSecret: DEV_JWT_SECRET, serviceToken: DEV_SERVICE_TOKEN };

let cached: Env | undefined;

/** The process's environment, validated on first use (cold start) and kept for the container's life. */
export function env(): Env {
  cached ??= readEnv();
  return cached;
}
