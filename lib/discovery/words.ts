/**
 * Text -> the words search matches against, the same for what is stored and what is asked:
 * NFKD (so `ĳ` becomes `ij` and `é` becomes `e` + a combining accent), combining marks dropped,
 * lower-cased, split on everything that is not a letter or a digit (so `buurt-tuin` is two words).
 * Works for Dutch, English and any other script; no stemming, no stop words (a search for `de`
 * finds every idea with a word starting with `de`, as CONTRACT asks).
 */

/** Index items key words by their first PREFIX_LENGTH characters (lib/store/ideas/index-items.ts). */
const PREFIX_LENGTH = 3;
/** Longer words are cut here: nobody searches for the 33rd letter of a word, and keys stay small. */
const MAX_WORD_LENGTH = 32;

export function normaliseText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The distinct words of a text, in order of first appearance. */
export function wordsOf(text: string): string[] {
  const words = normaliseText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => [...w].slice(0, MAX_WORD_LENGTH).join(''));
  return [...new Set(words)];
}

/** The prefixes of 1..PREFIX_LENGTH characters of each word (code points), distinct. */
export function prefixesOf(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const chars = [...word];
    for (let n = 1; n <= Math.min(PREFIX_LENGTH, chars.length); n++) out.add(chars.slice(0, n).join(''));
  }
  return [...out];
}

/** The index key a search term is looked up under: its first PREFIX_LENGTH characters. */
export const lookupPrefix = (term: string): string => [...term].slice(0, PREFIX_LENGTH).join('');

/** Whether every term starts some word of `words` (the in-memory check of each candidate). */
export function matchesAllTerms(words: readonly string[], terms: readonly string[]): boolean {
  return terms.every((term) => words.some((word) => word.startsWith(term)));
}
