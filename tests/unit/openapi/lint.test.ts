/**
 * The generated OpenAPI document passes `redocly lint` (@redocly/cli, recommended rules, redocly.yaml)
 * with no error and no warning.
 */
import { describe, expect, it } from 'vitest';
import { runProcess } from '#tests/support/run-process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '#lib/openapi/document';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('the OpenAPI document', () => {
  it('passes redocly lint with no problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(buildOpenApiDocument()));
      const res = await runProcess(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(root, 'redocly.yaml'), '--format=json'], {
        cwd: root,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const start = res.stdout.indexOf('{');
      expect(start, res.stderr).toBeGreaterThanOrEqual(0);
      const report = JSON.parse(res.stdout.slice(start)) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
