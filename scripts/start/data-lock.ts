/**
 * One `npm start` per .data/: two DynamoDB Locals on one database file lose writes and can hang each
 * other. The first takes .data/lock (created exclusively, holding its pid and URL); a second start is
 * refused with a message naming the holder. A lock whose process is gone (killed, crashed) is taken
 * over. `--in-memory` does not use .data/ and needs no lock. (The scripts find a running stack
 * through scripts/start/running-stacks.ts, in-memory ones too.)
 */
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { alive } from './running-stacks.ts';

class DataDirLockedError extends Error {}


/** Takes the lock; returns the function that releases it. */
export function lockDataDir(dataRoot: string, apiPort: number, dynamoEndpoint: string): () => Promise<void> {
  mkdirSync(dataRoot, { recursive: true });
  const path = `${dataRoot}/lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, url: `http://localhost:${apiPort}`, dynamoEndpoint, since: new Date().toISOString() }));
      closeSync(fd);
      return async () => {
        const holder = readHolder(path);
        if (holder?.pid === process.pid) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(path);
      if (holder && alive(holder.pid)) {
        throw new DataDirLockedError(
          `${dataRoot} is in use by another npm start (pid ${holder.pid}, ${holder.url}). ` +
            'Two instances on one database lose data: stop the other one, or start this one with `npm start -- --in-memory` ' +
            '(or with its own LOCAL_DATA_DIR).',
        );
      }
      console.log(`  taking over a stale .data/lock (pid ${holder?.pid ?? '?'} is gone)`);
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(`could not take ${path}`);
}

function readHolder(path: string): { pid: number; url: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; url?: unknown };
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, url: String(parsed.url) } : undefined;
  } catch {
    return undefined;
  }
}
