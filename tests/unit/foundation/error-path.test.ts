import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { childPath, errorPath } from '#lib/errors';
import { detailsOf } from '#lib/validation/zod-errors';
import { validateExtraData } from '#lib/extra-data/validate';
import { firstUnstorablePart } from '#lib/store/db/storable';

describe('details paths (CONTRACT "Decided details": brackets for array indexes everywhere)', () => {
  it.each([
    [[], '', ''],
    [['title'], '', 'title'],
    [['extraData', 'address', 'street'], '', 'extraData.address.street'],
    [['extraData', 'tags', 1], '', 'extraData.tags[1]'],
    [[2, 'ideaId'], '', '[2].ideaId'],
    [[0, 1, 'a'], '', '[0][1].a'],
    [['votes', 'themes', 0, 'value'], 'config', 'config.votes.themes[0].value'],
    [['0'], 'extraData', 'extraData.0'], // a key that looks like a number is still a key
  ] as const)('%j under %j is %s', (segments, prefix, expected) => {
    expect(errorPath(segments, prefix)).toBe(expected);
  });

  it('childPath adds one segment', () => {
    expect(childPath('', 'a')).toBe('a');
    expect(childPath('', 3)).toBe('[3]');
    expect(childPath('a', 3)).toBe('a[3]');
    expect(childPath('a[3]', 'b')).toBe('a[3].b');
  });

  it('zod issues, extraData checks and storability checks all write the same form', () => {
    const zod = z.object({ extraData: z.object({ tags: z.array(z.string()) }) }).safeParse({ extraData: { tags: ['a', 1] } });
    expect(zod.success || detailsOf(zod.error).map((d) => d.path)).toEqual(['extraData.tags[1]']);
    const defs = { tags: { type: 'arrayOfStrings' } } as const;
    expect(validateExtraData({ tags: ['a', 1] }, defs, false).map((d) => d.path)).toEqual(['extraData.tags[1]']);
    expect(firstUnstorablePart({ a: [[1, 1e-200]] }, 'extraData', 10)?.path).toBe('extraData.a[0][1]');
  });
});
