import { describe, expect, it } from 'vitest';
import { posterImageOf } from '#lib/extra-data/poster-image';

describe('posterImageOf', () => {
  it('takes the first URL string', () => {
    expect(posterImageOf({ images: ['https://x/a.jpg', 'https://x/b.jpg'] })).toEqual({ url: 'https://x/a.jpg' });
  });

  it('takes the url of a first {url} object', () => {
    expect(posterImageOf({ images: [{ url: 'https://x/a.jpg', alt: 'A' }, 'https://x/b.jpg'] })).toEqual({
      url: 'https://x/a.jpg',
    });
  });

  it.each([
    ['no extraData', undefined],
    ['null extraData', null],
    ['extraData not an object', 'x'],
    ['no images', {}],
    ['images not an array', { images: 'https://x/a.jpg' }],
    ['empty images', { images: [] }],
    ['first entry empty string', { images: ['', 'https://x/b.jpg'] }],
    ['first entry a number', { images: [3, 'https://x/b.jpg'] }],
    ['first entry null', { images: [null] }],
    ['first entry without url', { images: [{ src: 'https://x/a.jpg' }] }],
    ['first entry url not a string', { images: [{ url: 5 }] }],
    ['first entry an array', { images: [['https://x/a.jpg']] }],
  ])('is null for %s', (_name, extraData) => {
    expect(posterImageOf(extraData)).toBeNull();
  });

  it('returns only {url}, not the other keys of the entry', () => {
    const poster = posterImageOf({ images: [{ url: 'u', secret: 1 }] });
    expect(Object.keys(poster ?? {})).toEqual(['url']);
  });
});
