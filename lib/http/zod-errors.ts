/**
 * zod issues -> CONTRACT `details` (dot paths: `title`, `extraData.theme`, `[2].ideaId`).
 */
import type { z } from 'zod';
import { validationError, type ErrorDetail } from '#lib/http/errors';

export function dotPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function detailsOf(error: z.ZodError, prefix = ''): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: dotPath(issue.path, prefix), message: issue.message }));
}

/** Parses with a schema or throws a 400 ValidationError naming every failing path. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, what: string, prefix = ''): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(detailsOf(result.error, prefix), `Invalid ${what}`);
}
