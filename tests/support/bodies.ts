/**
 * Types of the JSON bodies the API answers, for typing `invoke<...>` in the tests. Each is taken from
 * the zod schema the handlers and the OpenAPI document use (schemas/*.ts), so a test reads the same
 * fields a client is promised. Record types the schemas already export (IdeaRecord, VoteRecord, ...)
 * are imported from there directly; this file holds only the shapes that have no exported type.
 */
import type * as z from 'zod';
import { errorBody, type deletedResponse, type listEnvelope } from '#schemas/common';
import type { resultsRecord } from '#schemas/results';
import type { healthResponse } from '#schemas/health';
import type { SiteRecord } from '#schemas/site';
import type { SiteConfig } from '#lib/sites/config-defaults';

/** CONTRACT's error body: every 4xx and 5xx answer. */
export type ErrorBody = z.infer<typeof errorBody>;

/** CONTRACT's list envelope around records of type `T`. */
export type ListEnvelope<T> = z.infer<ReturnType<typeof listEnvelope<z.ZodType<T>>>>;

/** The answer to every DELETE. */
export type Deleted = z.infer<typeof deletedResponse>;

/** A site as the API answers it: `config` merged over the defaults (CONTRACT), where siteRecord says only "an object". */
export type SiteBody = Omit<SiteRecord, 'config'> & { config: SiteConfig };

export type ResultsRecord = z.infer<typeof resultsRecord>;
export type HealthBody = z.infer<typeof healthResponse>;

/**
 * An answer body the test expects to be an error, checked against CONTRACT's error shape (a success
 * body here fails the test) rather than cast. The body itself is returned, not zod's copy, so a key
 * the schema does not list is still there for the test to see.
 */
export function errorOf(body: unknown): ErrorBody {
  errorBody.parse(body);
  return body as ErrorBody;
}
