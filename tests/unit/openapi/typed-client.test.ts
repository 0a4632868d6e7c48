/**
 * The generated-client example (examples/typed-client): `npm run typecheck` writes schema.d.ts with
 * openapi-typescript (default mode) from the document as it is now, then compiles client.ts against
 * it under strict settings. Here: that the step is wired so, and that the client holds no cast.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

describe('the generated-client example', () => {
  it('is compiled by the typecheck step under strict settings, with no cast in it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['typecheck']).toMatch(/tsx scripts\/openapi\/write-client-types\.ts && tsc --noEmit -p examples\/typed-client/);
    const tsconfig = JSON.parse(readFileSync(join(root, 'examples/typed-client/tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: false });
    const code = readFileSync(join(root, 'examples/typed-client/client.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    // No `x as T` (only `as const`), no `any`, no silenced errors.
    expect(code).not.toMatch(/\bas\s+(?!const\b)|\bany\b|@ts-(ignore|expect-error|nocheck)/);
  });
});
