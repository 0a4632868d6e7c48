/**
 * The hostile route table covers every endpoint: each function of functions/*\/functions.yml (handler
 * module, method and path) is in tests/support/hostile/routes.ts, and the table names nothing else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '#tests/support/hostile/routes';
import { NOT_BEHIND } from '#tests/support/hostile/openstad-routes';

interface Declared {
  name: string;
  module: string;
  method: string;
  path: string;
}

/** The functions of one functions.yml (block style, as the project writes them). */
function declared(file: string): Declared[] {
  const out: Declared[] = [];
  let current: Partial<Declared> | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const name = /^([A-Za-z0-9]+):\s*$/.exec(line);
    if (name) {
      current = { name: name[1]! };
      out.push(current as Declared);
      continue;
    }
    if (!current) continue;
    const handler = /^\s+handler:\s*(\S+)\.handler\s*$/.exec(line);
    if (handler) current.module = handler[1];
    const method = /^\s+method:\s*'?([^'\s]+)'?\s*$/.exec(line);
    if (method) current.method = method[1]!.toUpperCase();
    const path = /^\s+path:\s*(\S+)\s*$/.exec(line);
    // A function with several events (the docs page and its assets): the table names its first.
    if (path && current.path === undefined) current.path = path[1];
    if (/httpApi:\s*'\*'/.test(line)) {
      current.method = '*';
      current.path = '*';
    }
  }
  return out;
}

const root = join(import.meta.dirname, '../../..');
const all = readdirSync(join(root, 'functions'))
  .flatMap((dir) => {
    try {
      return declared(join(root, 'functions', dir, 'functions.yml'));
    } catch {
      return [];
    }
  })
  // Scheduled jobs (functions/jobs, `schedule` events) are not HTTP endpoints: nothing to attack.
  .filter((fn) => fn.method !== undefined);

/**
 * Endpoints that are not in the table yet (none now): an open gap is named here, so that it stays
 * visible and shrinks; a name leaves this list when its route enters the table.
 */
const NOT_YET_IN_TABLE = new Set<string>([]);

describe('the hostile route table', () => {
  it('lists as not yet covered only endpoints that exist and are not in the table', () => {
    for (const name of NOT_YET_IN_TABLE) {
      expect(all.some((fn) => fn.name === name), name).toBe(true);
      expect(routes.some((r) => r.name === name), name).toBe(false);
    }
  });

  it('reads the functions.yml files', () => {
    expect(all.length).toBeGreaterThan(30);
    for (const fn of all) expect(fn.module, fn.name).toMatch(/^functions\//);
  });

  it.each(all.filter((fn) => !NOT_YET_IN_TABLE.has(fn.name)).map((fn) => [fn.name, fn] as const))('covers %s', (_name, fn) => {
    const route = routes.find((r) => r.name === fn.name);
    expect(route, `${fn.name} (${fn.method} ${fn.path}) is missing from the hostile route table`).toBeDefined();
    expect(route!.module).toBe(fn.module);
    if (fn.method !== '*') {
      expect(route!.method).toBe(fn.method);
      expect(route!.path).toBe(fn.path);
    } else if (fn.path !== '*') {
      // One function for every method under a proxy path (the OpenStad surface): each entry is under its prefix.
      const prefix = fn.path.replace(/\{proxy\+\}$/, '');
      for (const entry of routes.filter((r) => r.name === fn.name)) expect(entry.path.startsWith(prefix), `${entry.key ?? entry.name}: ${entry.path}`).toBe(true);
    }
  });

  it('holds a twin under /openstad of every main entry the surface serves, and each stats route', () => {
    const twins = new Set(routes.filter((r) => r.name === 'openstad').map((r) => r.path));
    const main = routes.filter((r) => r.name !== 'openstad' && !NOT_BEHIND.has(r.name));
    expect(main.map((r) => `/openstad${r.path}`).filter((path) => !twins.has(path))).toEqual([]);
    expect([...twins].filter((path) => path.startsWith('/openstad/stats/')).length).toBe(5);
  });

  it('names no endpoint that does not exist', () => {
    expect(routes.map((r) => r.name).filter((name) => !all.some((fn) => fn.name === name))).toEqual([]);
  });
});
