/**
 * Where a running `npm start` says what it serves, so the one-off scripts (seed, job, verify-votes,
 * migrate) reach that stack and no other: each start writes `<data root>/stacks/<pid>.json` (the
 * data root is LOCAL_DATA_DIR, else .data/; an `--in-memory` run writes one too) with its API,
 * DynamoDB and auth-server URLs, and removes it when it stops. A file whose process is gone (killed,
 * crashed) is stale and removed by whoever reads it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunningStack {
  pid: number;
  /** The API, e.g. http://localhost:3000. */
  apiUrl: string;
  dynamoEndpoint: string;
  authServerUrl: string;
  tableName: string;
  inMemory: boolean;
  since: string;
}

/** LOCAL_DATA_DIR, else the project's .data/ (what npm start uses). */
export const dataRoot = (): string => process.env.LOCAL_DATA_DIR || fileURLToPath(new URL('../../.data', import.meta.url));

const stacksDir = () => join(dataRoot(), 'stacks');

/** Whether a process of this pid runs (EPERM: it does, as another user's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records this process's stack; returns the function that removes the record. */
export function announceStack(stack: Omit<RunningStack, 'pid' | 'since'>): () => void {
  mkdirSync(stacksDir(), { recursive: true });
  const file = join(stacksDir(), `${process.pid}.json`);
  // Written whole, then renamed into place: a reader never sees half a record.
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ pid: process.pid, ...stack, since: new Date().toISOString() }, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return () => rmSync(file, { force: true });
}

/** The stacks running now (stale records removed), oldest first. */
export function runningStacks(): RunningStack[] {
  let names: string[];
  try {
    names = readdirSync(stacksDir()).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const stacks: RunningStack[] = [];
  for (const name of names) {
    const file = join(stacksDir(), name);
    let stack: RunningStack;
    try {
      stack = JSON.parse(readFileSync(file, 'utf8')) as RunningStack;
    } catch {
      continue;
    }
    if (typeof stack.pid !== 'number' || typeof stack.dynamoEndpoint !== 'string') continue;
    if (alive(stack.pid)) stacks.push(stack);
    else rmSync(file, { force: true });
  }
  return stacks.sort((a, b) => a.since.localeCompare(b.since));
}
