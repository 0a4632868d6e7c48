/**
 * Environment, read and validated once at cold start (DESIGN habit 5). A function that is missing a
 * secret outside the local stage fails here, loudly, instead of serving requests with a weak key.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';

const LOCAL_STAGES = new Set(['local', 'test']);
const DEV_JWT_SECRET = 'local-dev-jwt-secret-change-me-0123456789abcdef';
const DEV_SERVICE_TOKEN = 'local-dev-service-token';

const envSchema = z.object({
  STAGE: z._default(z.string().check(z.minLength(1)), 'local'),
  TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'participation-local'),
  /** Set only locally (DynamoDB Local); on AWS the SDK finds the regional endpoint itself. */
  DYNAMODB_ENDPOINT: z.union([z.optional(z.string().check(z.url())), z.pipe(z.literal(''), z.transform(() => undefined))]),
  AWS_REGION: z._default(z.string(), 'eu-west-1'),
  JWT_SECRET: z.optional(z.string()),
  /** Lifetime of the JWTs issued at login, in seconds (default 7 days). */
  JWT_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 7 * 24 * 3600),
  API_SERVICE_TOKENS: z.optional(z.string()),
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

export interface Env {
  stage: string;
  isLocalStage: boolean;
  tableName: string;
  dynamoEndpoint: string | undefined;
  region: string;
  jwtSecret: Uint8Array;
  jwtTtlSeconds: number;
  serviceTokens: string[];
  logLevel: LogLevel;
  publicBaseUrl: string | undefined;
  /** Tests only; refused on a deployed stage. */
  dynamoFaults: string | undefined;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const raw = envSchema.parse(source);
  const isLocalStage = LOCAL_STAGES.has(raw.STAGE);
  let secret = raw.JWT_SECRET ?? '';
  if (Buffer.byteLength(secret) < 32) {
    if (!isLocalStage) {
      throw new Error(
        `JWT_SECRET is missing or shorter than 32 bytes on stage "${raw.STAGE}"; refusing to start`,
      );
    }
    secret = DEV_JWT_SECRET;
  }
  const tokens = (raw.API_SERVICE_TOKENS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    stage: raw.STAGE,
    isLocalStage,
    tableName: raw.TABLE_NAME,
    dynamoEndpoint: raw.DYNAMODB_ENDPOINT,
    region: raw.AWS_REGION,
    jwtSecret: new TextEncoder().encode(secret),
    jwtTtlSeconds: raw.JWT_TTL_SECONDS,
    serviceTokens: tokens.length > 0 || !isLocalStage ? tokens : [DEV_SERVICE_TOKEN],
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
