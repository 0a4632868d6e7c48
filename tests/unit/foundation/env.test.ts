import { describe, expect, it } from 'vitest';
import { readEnv } from '#lib/config/env';

describe('environment', () => {
  it('on a deployed stage, refuses to start with a secret in the environment: secrets come from the store', () => {
    expect(() => readEnv({ STAGE: 'prod', SECRETS_PATH: '/participation-api/prod/', JWT_SECRET: 'x'.repeat(40) })).toThrow(/JWT_SECRET set in the environment of stage "prod"/);
    expect(() => readEnv({ STAGE: 'prod', SECRETS_PATH: '/participation-api/prod/', API_SERVICE_TOKENS: 't'.repeat(40) })).toThrow(/API_SERVICE_TOKENS/);
    expect(() => readEnv({ STAGE: 'staging', SECRETS_PATH: '/p/s/', JWT_SECRET: '' })).toThrow(/secret store/);
  });

  it('on a deployed stage, needs the secret store path', () => {
    expect(() => readEnv({ STAGE: 'prod' })).toThrow(/SECRETS_PATH/);
    expect(() => readEnv({ STAGE: 'prod', SECRETS_PATH: 'not-a-path' })).toThrow();
    expect(readEnv({ STAGE: 'prod', SECRETS_PATH: '/participation-api/prod/' }).secretsPath).toBe('/participation-api/prod/');
  });

  it('on the local stages, reads secrets from the environment (no store path)', () => {
    for (const stage of ['local', 'test']) {
      const local = readEnv({ STAGE: stage, JWT_SECRET: 'anything', API_SERVICE_TOKENS: 'a,b' });
      expect(local.isLocalStage).toBe(true);
      expect(local.secretsPath).toBeUndefined();
    }
  });
});
