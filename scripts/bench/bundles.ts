/**
 * Bundle size and module-load (cold import) time of every function, next to the floor handler
 * (scripts/bench/floor-handler.ts: only the DynamoDB client and the secret store's reader). Bundles are built with the esbuild
 * options of serverless.yml `custom.esbuild`; each is then imported in fresh `node` processes, the
 * way a Lambda cold start loads it, each time right beside an import of the floor, and the median
 * time (wall and CPU) and the median ratio to the paired floor import are kept.
 */
import { build, type Metafile } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readDeployConfig } from './serverless-config.ts';
import { median, ratio, round, summarize, type Summary } from './stats.ts';
import { TARGETS } from './config.ts';

export interface BundleRow {
  name: string;
  route: string;
  source: string;
  /** Bytes of the bundle file (the source map is a separate file, not counted). */
  bytes: number;
  sizeRatio: number;
  /** Milliseconds to `import()` the bundle in a fresh process. */
  load: Summary;
  /** Median over the runs of (this import / the floor import paired with it). */
  loadRatio: number;
  /**
   * CPU milliseconds (user + system, all threads) the import takes, and its ratio to the floor's.
   * Other processes on the machine stretch wall time far more than CPU time, so on a shared machine
   * this ratio is the steadier one.
   */
  loadCpu: Summary;
  loadCpuRatio: number;
  /** What it holds beyond the floor, largest first: package or project folder -> bytes. */
  beyondFloor: Array<{ module: string; bytes: number }>;
  violations: string[];
}

export interface BundleResults {
  esbuildOptions: Record<string, unknown>;
  nodeVersion: string;
  nodeFlags: string[];
  loadRuns: number;
  floor: { bytes: number; load: Summary; loadCpu: Summary };
  functions: BundleRow[];
  violations: string[];
}

/** Lambda's NODE_OPTIONS (serverless.yml provider.environment): source maps are read at load. */
const NODE_FLAGS = ['--enable-source-maps'];

/** Package (`zod`, `@aws-sdk/core`) or project folder (`lib/store`) of a metafile input path. */
function moduleOf(input: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (nm) return nm[1]!;
  return input.split('/').slice(0, 2).join('/');
}

function bytesByModule(output: Metafile['outputs'][string]): Map<string, number> {
  const by = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const module = moduleOf(input);
    by.set(module, (by.get(module) ?? 0) + bytesInOutput);
  }
  return by;
}

/** The import time of one bundle in a fresh process, wall and CPU, as the child measures it. */
function importOnce(file: string, exportName: string, env: NodeJS.ProcessEnv): { ms: number; cpuMs: number } {
  const script = `
    const cpu = process.cpuUsage();
    const started = performance.now();
    const mod = await import(process.env.BENCH_BUNDLE);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (typeof mod[process.env.BENCH_EXPORT] !== 'function') throw new Error('no handler export');
    process.stdout.write(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 }));`;
  const out = execFileSync(process.execPath, [...NODE_FLAGS, '--input-type=module', '-e', script], {
    env: { ...env, BENCH_BUNDLE: pathToFileURL(file).href, BENCH_EXPORT: exportName },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out) as { ms: number; cpuMs: number };
}

export async function measureBundles(root: string, loadRuns: number, log: (line: string) => void): Promise<BundleResults> {
  const deploy = readDeployConfig(root);
  const outdir = mkdtempSync(join(tmpdir(), 'participation-bench-'));
  try {
    const entries: Record<string, string> = { __floor: join(root, 'scripts/bench/floor-handler.ts') };
    for (const fn of deploy.functions) entries[fn.name] = join(root, fn.source);
    const started = performance.now();
    // One build with many entry points and no code splitting gives the same files as one build per
    // function (what serverless-esbuild does with `package.individually`), in a fraction of the time.
    const result = await build({
      ...deploy.esbuild,
      entryPoints: entries,
      outdir,
      outExtension: { '.js': deploy.outExtension },
      metafile: true,
      logLevel: 'warning',
      absWorkingDir: root,
    });
    log(`  built ${deploy.functions.length + 1} bundles in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const outputs = new Map<string, { file: string; bytes: number; modules: Map<string, number> }>();
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      if (!output.entryPoint) continue;
      const name = Object.keys(entries).find((n) => file.endsWith(`/${n}${deploy.outExtension}`));
      if (name) outputs.set(name, { file: join(root, file), bytes: output.bytes, modules: bytesByModule(output) });
    }

    // What a function sees on Lambda at load: a deployed stage (its secrets come from the secret store
    // under SECRETS_PATH, read on the first invocation, not at load), no local endpoint, and the SDK's
    // Node-version notice silenced as everywhere else in this project.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      AWS_REGION: 'eu-west-1',
      STAGE: 'bench',
      TABLE_NAME: 'participation-api-bench',
      SECRETS_PATH: '/participation-api/bench/',
      LOG_LEVEL: 'INFO',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    // Each function's import is paired with an import of the floor right next to it (in alternating
    // order), and the ratio is taken per pair: on a shared machine the load changes from second to
    // second, and a pair sees the same load. The function's figure is the median over the pairs.
    const importOf = (name: string) => {
      const exportName = name === '__floor' ? 'handler' : deploy.functions.find((f) => f.name === name)!.exportName;
      return importOnce(outputs.get(name)!.file, exportName, env);
    };
    const floorWall: number[] = [];
    const floorCpu: number[] = [];
    const perFunction = new Map(deploy.functions.map((f) => [f.name, { wall: [] as number[], cpu: [] as number[], wallRatio: [] as number[], cpuRatio: [] as number[] }]));
    for (let run = 0; run < loadRuns; run++) {
      for (const fn of deploy.functions) {
        const floorFirst = run % 2 === 0;
        const a = importOf(floorFirst ? '__floor' : fn.name);
        const b = importOf(floorFirst ? fn.name : '__floor');
        const [f, x] = floorFirst ? [a, b] : [b, a];
        const samples = perFunction.get(fn.name)!;
        floorWall.push(f.ms);
        floorCpu.push(f.cpuMs);
        samples.wall.push(x.ms);
        samples.cpu.push(x.cpuMs);
        samples.wallRatio.push(x.ms / f.ms);
        samples.cpuRatio.push(x.cpuMs / f.cpuMs);
      }
      log(`  load times: run ${run + 1}/${loadRuns}`);
    }

    const floorOut = outputs.get('__floor')!;
    const floor = { bytes: floorOut.bytes, load: summarize(floorWall), loadCpu: summarize(floorCpu) };
    const functions: BundleRow[] = deploy.functions.map((fn) => {
      const out = outputs.get(fn.name)!;
      const samples = perFunction.get(fn.name)!;
      const load = summarize(samples.wall);
      const sizeRatio = ratio(out.bytes, floor.bytes);
      const loadRatio = round(median(samples.wallRatio));
      const loadCpu = summarize(samples.cpu);
      const loadCpuRatio = round(median(samples.cpuRatio));
      const beyondFloor = [...out.modules]
        .map(([module, bytes]) => ({ module, bytes: bytes - (floorOut.modules.get(module) ?? 0) }))
        .filter((m) => m.bytes > 512)
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 8);
      const violations: string[] = [];
      if (sizeRatio > TARGETS.bundleRatio) violations.push(`size ${sizeRatio}x floor`);
      if (loadRatio > TARGETS.bundleRatio) violations.push(`load ${loadRatio}x floor`);
      return { name: fn.name, route: fn.route, source: fn.source, bytes: out.bytes, sizeRatio, load, loadRatio, loadCpu, loadCpuRatio, beyondFloor, violations };
    });
    return {
      esbuildOptions: { ...deploy.esbuild, outExtension: deploy.outExtension },
      nodeVersion: process.version,
      nodeFlags: NODE_FLAGS,
      loadRuns,
      floor,
      functions,
      violations: functions.flatMap((f) => f.violations.map((v) => `${f.name}: ${v}`)),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
