/**
 * The deploy artifact stays valid: `serverless package` runs offline (no AWS credentials) and every
 * function of serverless.yml comes out as its own small bundle.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('serverless package', () => {
  it('packages every function for the prod stage without AWS credentials', () => {
    const out = mkdtempSync(join(tmpdir(), 'sls-package-'));
    try {
      execFileSync(process.execPath, ['node_modules/serverless/bin/serverless.js', 'package', '--stage', 'prod', '--package', out], {
        cwd: root,
        env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: 'none-such', SLS_TELEMETRY_DISABLED: '1' },
        stdio: 'pipe',
        timeout: 240_000,
      });
      const state = JSON.parse(readFileSync(join(out, 'serverless-state.json'), 'utf8'));
      const functions = Object.entries(state.service.functions as Record<string, { package?: { artifact?: string } }>);
      expect(functions.length).toBeGreaterThan(5);
      for (const [name, fn] of functions) {
        const artifact = fn.package?.artifact;
        expect(artifact, `artifact of ${name}`).toBeTruthy();
        const size = statSync(join(out, artifact!.split('/').pop()!)).size;
        expect(size, `zip of ${name}`).toBeGreaterThan(10_000);
      }
      const template = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8'));
      const table = template.Resources.Table.Properties;
      expect(table.DeletionProtectionEnabled).toBe(true);
      expect(table.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
      expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
