/**
 * The docs stand alone: a reader of this repository has the README, docs/ and the examples, nothing
 * else. So they name no document kept elsewhere and no tracker numbers, and every relative link
 * points at a file that is here.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'examples/frontend/README.md'].filter((p) =>
  existsSync(join(root, p)),
);

describe('the docs', () => {
  it.each(pages)('%s names no outside document and no issue number', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    expect(text.match(/\bCONTRACT\b|\bissues? #?\d+/gi) ?? []).toEqual([]);
  });

  it.each(pages)('%s links only to files that are in the repository', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
    const missing = targets.filter((t) => !existsSync(join(root, dirname(page), t)));
    expect(missing).toEqual([]);
  });
});
