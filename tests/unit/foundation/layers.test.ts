/**
 * The house's layering (docs/architecture.md, written once here): every lib/ folder sits in one layer
 * and imports only folders of its own layer or of the layers below it, and the folders form no cycle
 * (a folder-level cycle is a design bug even when every file is acyclic). On top of that:
 *   - lib/store imports nothing above it: only itself, the foundation and schemas/;
 *   - only lib/store talks to AWS (DynamoDB, the secret store): no other folder imports an AWS SDK
 *     client or Powertools Parameters (Powertools Metrics writes log lines, it calls no service);
 *   - no handler imports the store;
 *   - schemas/ import nothing from lib/.
 * Read from the source with the TypeScript compiler's own parser, so comments and strings never count;
 * type-only imports count too (they are dependencies all the same).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/**
 * Top to bottom. A request flows down: the API Gateway adapter hands it to request setup, which calls
 * one domain (or application) function; application features combine domains; domains use the core
 * rules every domain shares; everything that is stored goes through the store; the foundation is
 * domain-neutral. Within a layer folders may import each other as long as no cycle forms.
 */
const LAYERS: ReadonlyArray<readonly [layer: string, folders: readonly string[]]> = [
  ['adapter', ['http', 'openapi', 'openstad', 'routes']],
  ['request', ['request']],
  ['application', ['jobs', 'migrate', 'privacy']],
  ['domain', ['arguments', 'articles', 'content', 'discovery', 'extra-data', 'ideas', 'newsletter', 'notifications', 'oauth', 'results', 'site-admin', 'system', 'tags', 'users', 'votes']],
  ['core', ['auth', 'auth-server', 'sites', 'vote-record']],
  ['store', ['store']],
  ['foundation', ['config', 'crypto', 'errors', 'log', 'observability', 'validation']],
];

const rankOf = new Map(LAYERS.flatMap(([, folders], rank) => folders.map((folder) => [folder, rank] as const)));
const layerOf = (folder: string) => LAYERS[rankOf.get(folder)!]![0];

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

/** The lib/ folder of a file (`lib/errors.ts` is the folder `errors`) or of an import specifier. */
const folderOfFile = (file: string) => file.split('/')[1]!.replace(/\.ts$/, '');
const folderOfSpecifier = (specifier: string) => /^#lib\/([^/]+)/.exec(specifier)?.[1];

interface Edge {
  from: string;
  to: string;
  where: string;
}

/** The folder graph of lib/: one edge per folder pair, with one file import that makes it. */
function folderGraph(files: string[]): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>();
  for (const file of files) {
    const from = folderOfFile(file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of importsOf(file)) {
      const to = folderOfSpecifier(specifier);
      if (to === undefined || to === from || graph.get(from)!.has(to)) continue;
      graph.get(from)!.set(to, { from, to, where: `${file} imports ${specifier}` });
    }
  }
  return graph;
}

/** One cycle of the graph as the edges that close it, or undefined when there is none. */
function findCycle(graph: Map<string, Map<string, Edge>>): Edge[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: Edge[] = [];
  const visit = (node: string): Edge[] | undefined => {
    state.set(node, 'open');
    for (const edge of graph.get(node)?.values() ?? []) {
      if (state.get(edge.to) === 'open') return [...path.slice(path.findIndex((e) => e.from === edge.to)), edge];
      if (state.get(edge.to) === 'done') continue;
      path.push(edge);
      const cycle = visit(edge.to);
      if (cycle) return cycle;
      path.pop();
    }
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

const lib = filesUnder('lib');
const graph = folderGraph(lib);

describe('layers', () => {
  it('every lib/ folder has its place in the layers (a new folder is added to LAYERS above)', () => {
    const unplaced = [...graph.keys()].filter((folder) => !rankOf.has(folder)).sort();
    expect(unplaced).toEqual([]);
    expect(LAYERS.flatMap(([, folders]) => folders).filter((folder) => !graph.has(folder))).toEqual([]);
  });

  it('the lib/ folders form no cycle', () => {
    const cycle = findCycle(graph);
    expect(cycle?.map((edge) => `${edge.from} -> ${edge.to} (${edge.where})`)).toBeUndefined();
  });

  it('a folder imports only its own layer and the layers below', () => {
    const upward = [...graph.values()]
      .flatMap((edges) => [...edges.values()])
      .filter((edge) => rankOf.has(edge.from) && rankOf.has(edge.to) && rankOf.get(edge.to)! < rankOf.get(edge.from)!)
      .map((edge) => `${layerOf(edge.from)} ${edge.from} -> ${layerOf(edge.to)} ${edge.to} (${edge.where})`);
    expect(upward).toEqual([]);
  });

  it('lib/store imports nothing above it: itself, the foundation, schemas/ and the AWS SDK (with Powertools Parameters over it)', () => {
    const store = filesUnder('lib/store');
    expect(store.length).toBeGreaterThan(20);
    const below = new Set(['store', ...LAYERS.find(([layer]) => layer === 'foundation')![1]]);
    const allowed = (s: string) =>
      below.has(folderOfSpecifier(s) ?? '') || s.startsWith('#schemas/') || s.startsWith('node:') || s.startsWith('@aws-sdk/') || s.startsWith('@smithy/') || s.startsWith('@aws-lambda-powertools/parameters') || s.endsWith('.json');
    expect(violations(store, allowed)).toEqual([]);
  });

  it('only lib/store talks to AWS: no other lib/ folder and no handler imports an AWS client', () => {
    const talksToAws = (s: string) => s.startsWith('@aws-sdk/') || s.startsWith('@smithy/') || s.startsWith('@aws-lambda-powertools/parameters');
    const outside = [...lib.filter((file) => folderOfFile(file) !== 'store'), ...filesUnder('functions')];
    expect(violations(outside, (s) => !talksToAws(s))).toEqual([]);
    expect(violations(filesUnder('lib/store'), (s) => !talksToAws(s)).length, 'the check sees the store\'s own AWS imports').toBeGreaterThan(0);
  });

  it('no handler imports the store', () => {
    expect(violations(filesUnder('functions'), (s) => !s.startsWith('#lib/store/') && !s.startsWith('@aws-sdk/'))).toEqual([]);
  });

  it('schemas/ import nothing from lib/', () => {
    expect(violations(filesUnder('schemas'), (s) => !s.startsWith('#lib/'))).toEqual([]);
  });

  it('the checks see what they claim to: a planted cycle and a planted upward import are found', () => {
    expect(importsOf('lib/arguments/service.ts')).toContain('#lib/store/arguments/arguments');
    const planted = folderGraph(lib);
    planted.get('store')!.set('ideas', { from: 'store', to: 'ideas', where: 'planted' });
    expect(findCycle(planted)?.map((edge) => edge.from)).toEqual(expect.arrayContaining(['store', 'ideas']));
    expect(rankOf.get('store')! > rankOf.get('ideas')!).toBe(true);
  });
});
