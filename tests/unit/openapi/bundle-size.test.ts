/**
 * The documentation functions stay small: bundled as serverless.yml bundles them (esbuild, minified
 * ESM for node22), each is within 1.5x of an ordinary handler. The document generator and the schemas
 * are the only big parts; the DynamoDB client is not in them at all.
 */
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

async function bundle(entry: string) {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    write: false,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
  });
  return { bytes: result.outputFiles[0]!.contents.length, inputs: Object.keys(result.metafile.inputs) };
}

describe('bundle size of the documentation functions', () => {
  it('is within 1.5x of an ordinary handler, without the AWS SDK', async () => {
    const reference = await bundle('functions/sites/get.ts');
    for (const entry of ['functions/system/openapi.ts', 'functions/system/docs.ts']) {
      const { bytes, inputs } = await bundle(entry);
      expect(bytes, entry).toBeLessThanOrEqual(reference.bytes * 1.5);
      expect(inputs.some((i) => i.includes('@aws-sdk')), `${entry} bundles the AWS SDK`).toBe(false);
    }
  });
});
