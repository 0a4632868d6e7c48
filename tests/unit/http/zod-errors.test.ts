/** zod issues -> CONTRACT `details` (lib/validation/zod-errors.ts): one entry per failing field, paths in dot form. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { detailsOf, parseOrThrow } from '#lib/validation/zod-errors';

describe('details', () => {
  it('one detail per field even when zod reports several issues for it; array indexes in brackets; a prefix', () => {
    const schema = z.object({ n: z.string().min(5).regex(/^\d+$/), list: z.array(z.string()) });
    const result = schema.safeParse({ n: 'ab', list: ['a', 2] });
    expect(result.success).toBe(false);
    // zod says two things about `n` (too short, not digits): the client gets one.
    expect(result.error!.issues.filter((i) => i.path[0] === 'n')).toHaveLength(2);
    const details = detailsOf(result.error!, 'body');
    expect(details.map((d) => d.path)).toEqual(['body.n', 'body.list[1]']);
    expect(details[0]!.message).toBe(result.error!.issues[0]!.message);
  });

  it('parseOrThrow: the value, or a 400 naming what was invalid', () => {
    expect(parseOrThrow(z.string(), 'x', 'query')).toBe('x');
    expect(() => parseOrThrow(z.string(), 1, 'query')).toThrow('Invalid query');
  });
});
