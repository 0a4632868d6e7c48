/**
 * What the bench reads from the deployment description, so it measures what `serverless package`
 * would build: the esbuild options of `custom.esbuild` in serverless.yml and every function of the
 * `functions:` list (each `functions/<resource>/functions.yml` it includes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SCHEMA, load, Type } from 'js-yaml';
import type { BuildOptions } from 'esbuild';

/** CloudFormation short-form tags (`!GetAtt`, `!Join` ...) only need to parse, not to mean anything. */
const CFN_TAGS = ['Ref', 'GetAtt', 'Join', 'Sub', 'Select', 'Split', 'If', 'Equals', 'Not', 'And', 'Or', 'FindInMap', 'ImportValue', 'Base64', 'Cidr', 'GetAZs', 'Condition'];
const schema = DEFAULT_SCHEMA.extend(
  CFN_TAGS.flatMap((tag) => (['scalar', 'sequence', 'mapping'] as const).map((kind) => new Type(`!${tag}`, { kind, construct: (data) => ({ [tag]: data }) }))),
);

const readYaml = (path: string): Record<string, unknown> => load(readFileSync(path, 'utf8'), { schema, filename: path }) as Record<string, unknown>;

interface FunctionEntry {
  /** The function's name in serverless.yml (`ideaList`). */
  name: string;
  /** Source file of its handler, relative to the project root (`functions/ideas/list.ts`). */
  source: string;
  /** Exported handler name (`handler`). */
  exportName: string;
  /** `GET /api/site/{siteId}/idea`, or `$default` for the catch-all. */
  route: string;
}

interface DeployConfig {
  esbuild: BuildOptions;
  /** serverless-esbuild's `outputFileExtension` (`.mjs`). */
  outExtension: string;
  functions: FunctionEntry[];
}

/** esbuild options serverless-esbuild passes through unchanged (the rest are options of the plugin). */
const ESBUILD_KEYS = [
  'bundle', 'minify', 'sourcemap', 'sourcesContent', 'target', 'platform', 'format', 'mainFields', 'banner', 'footer', 'define', 'keepNames',
  'loader', 'conditions', 'tsconfig', 'resolveExtensions', 'legalComments', 'treeShaking', 'inject', 'alias', 'external',
  'minifyIdentifiers', 'minifySyntax', 'minifyWhitespace', 'supported', 'charset', 'drop', 'pure',
] as const;

export function readDeployConfig(root: string): DeployConfig {
  const sls = readYaml(join(root, 'serverless.yml'));
  const custom = (sls.custom ?? {}) as Record<string, unknown>;
  const plugin = (custom.esbuild ?? {}) as Record<string, unknown>;
  const esbuild: Record<string, unknown> = {};
  for (const key of ESBUILD_KEYS) if (plugin[key] !== undefined) esbuild[key] = plugin[key];
  // The plugin's `exclude` lists packages left out of the bundle (serverless-esbuild makes them external).
  const exclude = (plugin.exclude ?? []) as string[];
  if (exclude.length > 0) esbuild.external = [...((esbuild.external as string[]) ?? []), ...exclude];

  const functions: FunctionEntry[] = [];
  for (const ref of (sls.functions ?? []) as unknown[]) {
    const file = /^\$\{file\((.+)\)\}$/.exec(String(ref))?.[1];
    if (!file) throw new Error(`serverless.yml functions: cannot read entry ${JSON.stringify(ref)}`);
    const path = join(root, file);
    for (const [name, spec] of Object.entries(readYaml(path))) {
      const { handler, events } = spec as { handler: string; events?: Array<{ httpApi?: { method?: string; path?: string } | string }> };
      const dot = handler.lastIndexOf('.');
      const http = events?.find((e) => e.httpApi)?.httpApi;
      const route = typeof http === 'string' ? http : http ? `${http.method} ${http.path}` : '(no http event)';
      functions.push({ name, source: `${handler.slice(0, dot)}.ts`, exportName: handler.slice(dot + 1), route });
    }
  }
  return { esbuild: esbuild as BuildOptions, outExtension: String(plugin.outputFileExtension ?? '.js'), functions };
}
