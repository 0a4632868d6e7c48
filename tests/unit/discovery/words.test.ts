import { describe, expect, it } from 'vitest';
import { lookupPrefix, matchesAllTerms, normaliseText, prefixesOf, wordsOf } from '#lib/discovery/words';

describe('search words', () => {
  it('drops accents and case, so café, CAFÉ and cafe are one word', () => {
    expect(wordsOf('Café CAFÉ cafe')).toEqual(['cafe']);
    expect(normaliseText('Ærø Ünïcödé')).toBe('ærø unicode');
  });

  it('turns the Dutch ĳ ligature into i + j', () => {
    expect(wordsOf('Het ĳsje')).toEqual(['het', 'ijsje']);
  });

  it('splits on hyphens, punctuation and spaces but keeps digits', () => {
    expect(wordsOf("buurt-tuin, speel/plek: 3e fase! (2024) it's")).toEqual(['buurt', 'tuin', 'speel', 'plek', '3e', 'fase', '2024', 'it', 's']);
  });

  it('keeps letters of other scripts', () => {
    expect(wordsOf('Привет мир')).toEqual(['привет', 'мир']);
  });

  it('cuts very long words at 32 characters', () => {
    expect(wordsOf('a'.repeat(50))).toEqual(['a'.repeat(32)]);
  });

  it('prefixes of 1 to 3 characters, distinct', () => {
    expect(prefixesOf(['cafe', 'car', 'x'])).toEqual(['c', 'ca', 'caf', 'car', 'x']);
    expect(lookupPrefix('cafeteria')).toBe('caf');
    expect(lookupPrefix('ij')).toBe('ij');
  });

  it('every term must start some word', () => {
    const words = wordsOf('Een nieuwe speeltuin bij het café');
    expect(matchesAllTerms(words, ['spee', 'caf'])).toBe(true);
    expect(matchesAllTerms(words, ['tuin'])).toBe(false);
    expect(matchesAllTerms(words, ['spee', 'zwembad'])).toBe(false);
  });
});
