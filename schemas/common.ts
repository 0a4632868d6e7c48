/**
 * Shared zod pieces for paths, queries and bodies, per CONTRACT "Requests".
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';

/** A path id: a positive integer in plain decimal digits (`abc`, `0`, `-1`, `1.5`, `012`, `1e3` fail). */
export const pathId = z
  .pipe(z.string().check(z.regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer')), z.transform(Number))
  .check(z.refine(Number.isSafeInteger, 'must be a positive integer'));

/** Whether a command-line argument is an id as a path would take it (the scripts' `--site N`). */
export const isIdText = (text: string): boolean => pathId.safeParse(text).success;

/** An id inside a JSON body: a JSON integer, never a string. */
export const bodyId = z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));

const flagValue = () => z.enum(['1', 'true', '0', 'false'], { error: 'must be 1, true, 0 or false' });

/** Boolean query flags: `1`/`true` on, `0`/`false` or absent off, anything else a 400. */
export const queryFlag = z.pipe(
  z.optional(flagValue()),
  z.transform((v) => v === '1' || v === 'true'),
);

/** A flag whose absence is not "off" (activity's `includeOtherSites` defaults to true). */
export const queryFlagOrUndefined = z.pipe(
  z.optional(flagValue()),
  z.transform((v) => (v === undefined ? undefined : v === '1' || v === 'true')),
);

export const pageQuery = {
  pageSize: z.pipe(
    z.optional(
      z
        .pipe(z.string().check(z.regex(/^[0-9]{1,3}$/, 'must be an integer from 1 to 500')), z.transform(Number))
        .check(z.refine((n) => n >= 1 && n <= 500, 'must be an integer from 1 to 500')),
    ),
    z.transform((n) => n ?? 100),
  ),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
};

export const pageQuerySchema = z.object(pageQuery);

export const siteParams = z.object({ siteId: pathId });

/** The list envelope of CONTRACT. */
export const listEnvelope = <T extends z.core.SomeType>(record: T) =>
  z.object({
    records: z.array(record),
    metadata: z.object({ pageSize: z.int(), nextCursor: z.nullable(z.string()) }),
  });

export const deletedResponse = z.object({ id: z.int(), deleted: z.literal(true) });

export const errorBody = z.object({
  status: z.int(),
  error: z.string(),
  message: z.string(),
  details: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
});
