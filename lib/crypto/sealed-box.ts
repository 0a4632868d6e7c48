/**
 * Authenticated encryption of small tokens (AES-256-GCM, node:crypto): the content is unreadable
 * without the key, and a token that was altered in any bit, or presented with other associated data
 * than it was sealed with, does not open at all.
 *
 * Layout (then base64url): version (1 byte) | IV (12 random bytes) | tag (16 bytes) | ciphertext.
 * The version byte is also part of the associated data, so it cannot be swapped either. A random
 * 96-bit IV per token is safe far beyond any number of tokens one key will seal.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

const aadOf = (aad: string) => Buffer.concat([Buffer.from([VERSION]), Buffer.from(aad, 'utf8')]);

export function seal(key: Buffer, plaintext: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadOf(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext, or undefined for anything that is not a token sealed with this key and `aad`. */
export function open(key: Buffer, token: string, aad: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  // base64url decoding ignores stray trailing bits; re-encoding catches a token altered there.
  if (raw.length <= HEADER_BYTES || raw[0] !== VERSION || raw.toString('base64url') !== token) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(aadOf(aad));
    decipher.setAuthTag(raw.subarray(1 + IV_BYTES, HEADER_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
