/**
 * zod issues -> CONTRACT `details` (paths as errorPath writes them: `title`, `extraData.tags[1]`, `[2].ideaId`).
 */
import type { z } from 'zod';
import { errorPath, validationError, type ErrorDetail } from '#lib/errors';

/** Kept for existing callers; the formatter itself is errorPath (lib/errors.ts). */
export const dotPath = errorPath;

export function detailsOf(error: z.ZodError, prefix = ''): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: errorPath(issue.path, prefix), message: issue.message }));
}

/** Parses with a schema or throws a 400 ValidationError naming every failing path. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, what: string, prefix = ''): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(detailsOf(result.error, prefix), `Invalid ${what}`);
}
