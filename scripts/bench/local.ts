/**
 * Section `local` of `npm run bench` (BENCH_ONLY=local; `npm run bench:local` is the same): how fast
 * and how light `npm start -- --in-memory` is, measured from outside as a developer sees it. Starts the
 * real start script on free ports, and records
 *   - seconds until each progress line and until "ready" (the start script's own phases),
 *   - resident memory (RSS) of the whole process tree at ready and after the first requests,
 *   - seconds from a handler edit (the file rewritten) until a request is answered by the new code.
 * The figures go under the `local` key of bench/results.json, with their own run record (section-run.ts).
 * Knob: BENCH_LOCAL_RUNS (default 3 starts; the median is reported).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../dynamo-local.ts';
import { startSection, type SectionRun } from './section-run.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The handler the edit test rewrites (content unchanged; the write is what a save does). */
const EDITED = resolve(root, 'functions/system/openapi.ts');
export const LOCAL_TARGETS = { readySeconds: 5, rssMiB: 1024, reloadSeconds: 2 };

/** RSS of a process and all its descendants, from /proc (Linux). */
function treeRssMiB(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), kb);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return Math.round(total / 1024);
}

export interface LocalRun {
  readySeconds: number;
  phases: { line: string; seconds: number }[];
  rssAtReadyMiB: number;
  rssAfterRequestsMiB: number;
  reloadSeconds: number | null;
}

async function oneRun(): Promise<LocalRun> {
  const [port, authPort, dynamoPort] = [await freePort(), await freePort(), await freePort()];
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--in-memory'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), AUTH_SERVER_PORT: String(authPort), DYNAMODB_PORT: String(dynamoPort), LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const phases: { line: string; seconds: number }[] = [];
  let text = '';
  const waiters: Array<{ match: RegExp; resolve: () => void }> = [];
  const onData = (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (!line.trim()) continue;
      text += `${line}\n`;
      phases.push({ line: line.trim().slice(0, 100), seconds: seconds() });
      for (const w of waiters.splice(0)) {
        if (w.match.test(line)) w.resolve();
        else waiters.push(w);
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const waitFor = (match: RegExp, ms: number) =>
    new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no line matching ${match} within ${ms / 1000} s:\n${text}`)), ms);
      waiters.push({
        match,
        resolve: () => {
          clearTimeout(timer);
          res();
        },
      });
      child.once('exit', () => rej(new Error(`npm start exited:\n${text}`)));
    });
  try {
    await waitFor(/is ready/, 300_000);
    const readySeconds = seconds();
    const rssAtReadyMiB = treeRssMiB(child.pid!);
    const base = `http://127.0.0.1:${port}`;
    for (const path of ['/api/openapi.json', '/api/site', '/api/site/1/idea']) await (await fetch(`${base}${path}`)).text();
    const rssAfterRequestsMiB = treeRssMiB(child.pid!);

    let reloadSeconds: number | null = null;
    const source = readFileSync(EDITED, 'utf8');
    const editedAt = performance.now();
    writeFileSync(EDITED, source);
    try {
      await waitFor(/reloaded/, 30_000);
      const res = await fetch(`${base}/api/openapi.json`);
      await res.text();
      if (res.status === 200) reloadSeconds = Math.round((performance.now() - editedAt) / 100) / 10;
    } catch {
      // no reload line: the start script does not reload handlers on an edit (kept as null)
    }
    return { readySeconds, phases, rssAtReadyMiB, rssAfterRequestsMiB, reloadSeconds };
  } finally {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 2_000));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // stopped cleanly
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface LocalResults {
  run: SectionRun;
  targets: typeof LOCAL_TARGETS;
  runs: number;
  readySeconds: number;
  rssAtReadyMiB: number;
  rssAfterRequestsMiB: number;
  reloadSeconds: number | null;
  phasesOfFirstRun: LocalRun['phases'];
  each: Omit<LocalRun, 'phases'>[];
  violations: string[];
  /** The figures before the local stack served handlers from source (kept from the previous file). */
  before?: { readySeconds: number; rssAtReadyMiB: number; rssAfterRequestsMiB: number; reloadSeconds: number | null; note?: string };
}

/** `runs` starts of `npm start -- --in-memory`; `before` is carried over from the previous results. */
export async function measureLocal(runs: number, log: (line: string) => void, before?: LocalResults['before']): Promise<LocalResults> {
  const section = startSection({ localRuns: runs });
  const results: LocalRun[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await oneRun();
    log(`  run ${i + 1}: ready ${run.readySeconds} s, RSS ${run.rssAtReadyMiB} MiB at ready, ${run.rssAfterRequestsMiB} MiB after requests, reload ${run.reloadSeconds ?? '-'} s`);
    results.push(run);
  }
  const reloads = results.map((r) => r.reloadSeconds).filter((s): s is number => s !== null);
  const readySeconds = median(results.map((r) => r.readySeconds));
  const rssAtReadyMiB = median(results.map((r) => r.rssAtReadyMiB));
  const rssAfterRequestsMiB = median(results.map((r) => r.rssAfterRequestsMiB));
  const reloadSeconds = reloads.length ? median(reloads) : null;
  const violations = [
    ...(readySeconds > LOCAL_TARGETS.readySeconds ? [`ready in ${readySeconds} s > ${LOCAL_TARGETS.readySeconds} s`] : []),
    ...(rssAfterRequestsMiB > LOCAL_TARGETS.rssMiB ? [`RSS ${rssAfterRequestsMiB} MiB > ${LOCAL_TARGETS.rssMiB} MiB`] : []),
    ...(reloadSeconds === null || reloadSeconds > LOCAL_TARGETS.reloadSeconds ? [`handler edit live in ${reloadSeconds ?? 'n/a'} s > ${LOCAL_TARGETS.reloadSeconds} s`] : []),
  ];
  return {
    run: section.finish(),
    targets: LOCAL_TARGETS,
    runs: results.length,
    readySeconds,
    rssAtReadyMiB,
    rssAfterRequestsMiB,
    reloadSeconds,
    phasesOfFirstRun: results[0]!.phases,
    each: results.map(({ phases: _phases, ...r }) => r),
    violations,
    ...(before ? { before } : {}),
  };
}
