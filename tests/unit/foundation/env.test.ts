import { describe, expect, it } from 'vitest';
import { readEnv } from '#lib/config/env';

describe('environment at cold start', () => {
  it('refuses a missing or short JWT_SECRET outside the local stages', () => {
    expect(() => readEnv({ STAGE: 'prod' })).toThrow(/JWT_SECRET/);
    expect(() => readEnv({ STAGE: 'dev', JWT_SECRET: 'short' })).toThrow(/32 bytes/);
    expect(readEnv({ STAGE: 'prod', JWT_SECRET: 'x'.repeat(32) }).jwtSecret.length).toBe(32);
    // The boundary itself: every length below 32 bytes is refused (a lowered minimum is caught here).
    for (const length of [1, 16, 24, 31]) expect(() => readEnv({ STAGE: 'prod', JWT_SECRET: 'x'.repeat(length) }), String(length)).toThrow(/32 bytes/);
    // Bytes, not characters: 16 two-byte characters are 32 bytes.
    expect(readEnv({ STAGE: 'prod', JWT_SECRET: 'é'.repeat(16) }).jwtSecret.length).toBe(32);
    expect(() => readEnv({ STAGE: 'prod', JWT_SECRET: 'é'.repeat(15) })).toThrow(/32 bytes/);
  });
  it('uses dev defaults only on the local stages', () => {
    const local = readEnv({ STAGE: 'local' });
    expect(local.serviceTokens).toEqual(['local-dev-service-token']);
    expect(local.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readEnv({ STAGE: 'prod', JWT_SECRET: 'x'.repeat(40) }).serviceTokens).toEqual([]);
  });
  it('splits API_SERVICE_TOKENS on commas', () => {
    expect(readEnv({ STAGE: 'local', API_SERVICE_TOKENS: ' a , b,,c ' }).serviceTokens).toEqual(['a', 'b', 'c']);
  });
});
