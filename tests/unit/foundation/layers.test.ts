/**
 * The house's layering (DESIGN "The house", issue 15 proof): data flows functions -> lib/<domain> ->
 * lib/store, so
 *   - lib/store imports nothing above it: only itself, lib/errors, lib/config, lib/log, lib/crypto
 *     (domain-neutral helpers) and schemas/ — never lib/auth, lib/http or a domain folder;
 *   - no handler imports the store;
 *   - schemas/ import nothing from lib/ (one documented exception below).
 * Read from the source with the TypeScript compiler's own parser, so comments and strings never count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const violations = (files: string[], allowed: (specifier: string) => boolean) =>
  files.flatMap((file) => importsOf(file).filter((s) => !allowed(s)).map((s) => `${file} imports ${s}`));

describe('layers', () => {
  it('lib/store imports nothing above it', () => {
    const store = filesUnder('lib/store');
    expect(store.length).toBeGreaterThan(20);
    const allowed = (s: string) =>
      /^#lib\/(store|config|log|crypto)\//.test(s) || s === '#lib/errors' || s.startsWith('#schemas/') || s.startsWith('node:') || s.startsWith('@aws-sdk/') || s.startsWith('@smithy/') || s.endsWith('.json');
    expect(violations(store, allowed)).toEqual([]);
  });

  it('no handler imports the store', () => {
    expect(violations(filesUnder('functions'), (s) => !s.startsWith('#lib/store/') && !s.startsWith('@aws-sdk/'))).toEqual([]);
  });

  it('schemas/ import nothing from lib/', () => {
    // The one exception: what an auth server may send is checked with the same reserved-key and
    // storability rules as a body (issue 12), which live in lib/http and lib/store.
    const files = filesUnder('schemas').filter((f) => f !== 'schemas/oauth.ts');
    expect(violations(files, (s) => !s.startsWith('#lib/'))).toEqual([]);
  });

  it('the test sees what it claims to (a planted upward import would be found)', () => {
    expect(importsOf('lib/arguments/record.ts')).toContain('#lib/store/arguments');
  });
});
