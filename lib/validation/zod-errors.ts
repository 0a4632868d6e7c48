/**
 * zod issues -> CONTRACT `details` (paths as errorPath writes them: `title`, `extraData.tags[1]`, `[2].ideaId`).
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { errorPath, validationError, type ErrorDetail } from '#lib/errors';

/**
 * One detail per failing field (CONTRACT "Decided details"): zod may report several issues for one value
 * (e.g. -1.5 for a positive integer); the first one says it.
 */
export function detailsOf(error: z.core.$ZodError, prefix = ''): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    const path = errorPath(issue.path, prefix);
    if (seen.has(path)) continue;
    seen.add(path);
    details.push({ path, message: issue.message });
  }
  return details;
}

/** Parses with a schema or throws a 400 ValidationError naming every failing path (or `invalid`'s error). */
export function parseOrThrow<T extends z.core.$ZodType>(
  schema: T,
  value: unknown,
  what: string,
  prefix = '',
  invalid?: (details: ErrorDetail[]) => Error,
): z.infer<T> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const details = detailsOf(result.error, prefix);
  throw invalid ? invalid(details) : validationError(details, `Invalid ${what}`);
}
