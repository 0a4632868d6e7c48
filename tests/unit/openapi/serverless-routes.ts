/**
 * The HTTP API routes serverless.yml declares, read from the `functions:` list's
 * `${file(./functions/<x>/functions.yml)}` entries. The files are block-style YAML by convention
 * (functions/sites/functions.yml), so a line reader is enough and needs no YAML dependency; every
 * `- httpApi` event must resolve to a route or the catch-all, else this throws instead of skipping it.
 * Used by the test that holds the route declarations (lib/routes) and serverless.yml in step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface DeclaredRoute {
  functionName: string;
  /** The handler module without its export (`functions/ideas/create`). */
  handler: string;
  method: string;
  path: string;
}

export function functionFiles(root: string): string[] {
  const yml = readFileSync(join(root, 'serverless.yml'), 'utf8');
  const list = yml.slice(yml.indexOf('\nfunctions:'));
  const files: string[] = [];
  for (const match of list.matchAll(/^\s+-\s+\$\{file\(\.\/([^)]+)\)\}\s*$/gm)) files.push(match[1]!);
  return files;
}

/** Every route, without the `$default` catch-all (`httpApi: '*'`). */
export function declaredRoutes(root: string): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const file of functionFiles(root)) {
    let fn = '';
    let handler = '';
    let pending: { method?: string; path?: string } | undefined;
    const flush = () => {
      if (!pending) return;
      if (!pending.method || !pending.path) throw new Error(`${file}: httpApi event of ${fn} without method and path`);
      routes.push({ functionName: fn, handler, method: pending.method.toUpperCase(), path: pending.path });
      pending = undefined;
    };
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (/^\s*(#|$)/.test(line)) continue;
      const name = /^([A-Za-z0-9_-]+):\s*$/.exec(line);
      if (name) {
        flush();
        fn = name[1]!;
        handler = '';
        continue;
      }
      const module = /^\s+handler:\s*(\S+)\.handler\s*$/.exec(line);
      if (module) {
        handler = module[1]!;
        continue;
      }
      if (/^\s+-\s+httpApi:\s*['"]?\*['"]?\s*$/.test(line)) continue;
      if (/^\s+-\s+httpApi:\s*$/.test(line)) {
        flush();
        pending = {};
        continue;
      }
      if (/^\s+-\s+httpApi\b/.test(line)) throw new Error(`${file}: unsupported httpApi event form: ${line.trim()}`);
      const field = /^\s+(method|path):\s*['"]?([^'"\s]+)['"]?\s*$/.exec(line);
      if (field && pending) pending[field[1] as 'method' | 'path'] = field[2]!;
    }
    flush();
  }
  return routes;
}
