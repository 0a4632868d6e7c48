/**
 * Which lines of serverless-offline's output `npm start` shows (all of them with `--verbose`).
 * serverless-offline prints a banner, the name of every function, a table of every route (about 250
 * lines for our 62 functions) and three lines per request. The developer needs none of it: npm start
 * prints the URLs itself, and the handlers' own request log (lib/log/logger.ts, one JSON line per
 * request) says what was called. What is left is what matters: errors, warnings, stack traces, the
 * handler host's notices (a reload), and the handlers' log lines.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** serverless-offline's own lines (its stderr notices; its stdout holds the route table). */
const OFFLINE_NOTICES = [
  /^Starting Offline at stage /,
  /^Offline \[http for lambda\] listening on /,
  /^Function names exposed for local invocation/,
  /^\s+\* [\w-]+: [\w-]+$/,
  /^Scheduling \[[\w-]+\] cron: /,
  /^Server ready: /,
  /^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD|ANY) \S+ \(λ: [\w-]+\)$/,
  /^\(λ: [\w-]+\) RequestId: /,
];

/** True for a line of serverless-offline's stderr that npm start hides. */
export const isOfflineNotice = (line: string): boolean => line.trim() === '' || OFFLINE_NOTICES.some((pattern) => pattern.test(line));

/** True for a line of its stdout that npm start shows: the handlers' JSON log lines, not the route table. */
export const isHandlerLogLine = (line: string): boolean => line.startsWith('{');

/** Copies the lines of `from` that `keep` accepts to `to`. */
export function forwardLines(from: Readable, to: Writable, keep: (line: string) => boolean): void {
  createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
    if (keep(line)) to.write(`${line}\n`);
  });
}
