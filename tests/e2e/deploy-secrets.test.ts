/**
 * `serverless package|deploy` for a non-local stage stops at once, naming the variable, when
 * JWT_SECRET or API_SERVICE_TOKENS is missing (serverless.yml `requiredSecretFallback`): a stack
 * without them would answer every login and every service call with an error. Only variable
 * resolution runs here (osls fails before building anything), so this costs seconds.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function serverless(args: string[], env: Record<string, string | undefined>) {
  const { JWT_SECRET: _j, API_SERVICE_TOKENS: _a, ...rest } = process.env;
  const res = spawnSync(process.execPath, ['node_modules/serverless/bin/serverless.js', ...args], {
    cwd: root,
    env: { ...rest, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: 'none-such', SLS_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

describe('deploy secrets', () => {
  it.each([
    ['both missing', {}, ['JWT_SECRET', 'API_SERVICE_TOKENS']],
    ['API_SERVICE_TOKENS missing', { JWT_SECRET: 'x'.repeat(40) }, ['API_SERVICE_TOKENS']],
  ])('refuse to package the prod stage with %s, naming them', (_label, env, missing) => {
    const res = serverless(['package', '--stage', 'prod', '--package', '/nonexistent-never-written'], env);
    expect(res.status).not.toBe(0);
    for (const name of missing) expect(res.output).toContain(`provider.environment.${name}`);
    expect(res.output).not.toContain('Packaging');
  });

  it('resolve with both set (prod) and without them on the local stage', () => {
    const prod = serverless(['print', '--stage', 'prod', '--path', 'provider.environment.JWT_SECRET'], { JWT_SECRET: 'j'.repeat(40), API_SERVICE_TOKENS: 'token-one' });
    expect(prod.status).toBe(0);
    expect(prod.output).toContain('j'.repeat(40));
    const local = serverless(['print', '--stage', 'local', '--path', 'provider.environment.API_SERVICE_TOKENS'], {});
    expect(local.status).toBe(0);
  });
});
