import { describe, expect, it } from 'vitest';
import { argumentRanges } from '#lib/store/ideas';

describe('argument ranges of a page of ideas', () => {
  it('is one range when the site is not known (a page in creation order)', () => {
    expect(argumentRanges([5, 3, 9])).toEqual([[3, 9]]);
    expect(argumentRanges([])).toEqual([]);
  });

  it('stays one range when no idea of the site lies between the page ideas', () => {
    expect(argumentRanges([3, 5, 9], [3, 5, 9])).toEqual([[3, 9]]);
  });

  it('cuts at the gaps holding the most ideas not on the page, into at most 4 ranges', () => {
    const site = Array.from({ length: 1000 }, (_, i) => i + 1);
    // Gaps hold 188 (11..200), 198 (201..400), 199 (400..600) and 389 (600..990) ideas not on the
    // page: the three widest are cut, the 188 stay inside the first range.
    expect(argumentRanges([10, 11, 200, 201, 400, 600, 990], site)).toEqual([
      [10, 201],
      [400, 400],
      [600, 600],
      [990, 990],
    ]);
  });

  it('ignores page ideas given twice', () => {
    expect(argumentRanges([7, 7, 8], [7, 8])).toEqual([[7, 8]]);
  });
});
