/** The Link header of a paged export (lib/results/link.ts): a next page is linked, the last page links nothing. */
import { describe, expect, it } from 'vitest';
import { nextLink } from '#lib/results/link';

describe('nextLink', () => {
  it('links the next page relative to the origin, as RFC 8288 has it', () => {
    expect(nextLink('/api/site/4/export/votes', 'format=csv&cursor=abc')).toEqual({ link: '</api/site/4/export/votes?format=csv&cursor=abc>; rel="next"' });
  });

  it('gives no header on the last page', () => {
    expect(nextLink('/api/site/4/export/votes', null)).toBeUndefined();
  });
});
