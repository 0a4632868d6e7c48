/**
 * A base64url string (a JWT signature, a signed cursor) with one character changed where all six of its
 * bits count. Changing the LAST characters is not a sure tamper: the last character of a 32-byte
 * signature carries only 4 bits, decoders ignore the other 2, so `...xw` -> `...xx` can decode to the
 * very same signature (a test that did so failed once in ~1,000 runs).
 */
export function tamperMiddle(text: string): string {
  const at = Math.floor(text.length / 2);
  return `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
}
