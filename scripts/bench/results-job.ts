/**
 * Section `results` of `npm run bench`, the job at city scale: a budgeting site of 500 ideas and
 * 100,000 ballots (the 500 × 100,000 vote of results-instance.ts) written to a DynamoDB Local of its
 * own (the tests' JVM settings: the bench's small heap does not hold 200,000 items) as vote rounds write
 * them (each ballot with its vote log entry), then read and computed by a fresh Node process each time
 * (results-job-child.ts), so its peak resident memory is the job's own and not this bench's:
 *   - `read`: the results job's read of the ballots alone (readSiteBallots, consistent, as compute.ts
 *     reads them): wall time, Query pages, and the heap the ballots hold once read;
 *   - `job`: the whole computation as the job runs it (computeSiteResults: read, Equal Shares with the
 *     add-one completion, greedy, the snapshot written), wall time;
 * each with the process's peak RSS, against the Lambda memory of the results job (serverless.yml).
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoLocal } from '../dynamo-local.ts';

const JOB_IDEAS = 500;
const JOB_BALLOTS = 100_000;

interface JobMemoryRow {
  mode: 'read' | 'job';
  ballots: number;
  /** Wall milliseconds of the step (against DynamoDB Local on this machine). */
  ms: number;
  /** DynamoDB requests the step made, by command. */
  commands: Record<string, number>;
  /** Heap the read ballots hold (after a GC), MiB; read only. */
  heldMiB?: number;
  /** Peak resident set of the process that did the step, MiB (Node and the loaded modules included). */
  peakRssMiB: number;
  /** Peak RSS of the same process before the step (Node, modules, the client): the baseline. */
  baselineRssMiB: number;
}

export interface JobMemoryBench {
  ideas: number;
  ballots: number;
  /** Bytes of the ballot items as stored (what the Query pages read). */
  ballotBytes: number;
  /** The results job's Lambda memory, MB. */
  lambdaMemoryMB: number;
  seedSeconds: number;
  rows: JobMemoryRow[];
}

const here = dirname(fileURLToPath(import.meta.url));

/** Runs results-job-child.ts in a fresh Node against `endpoint` (the bench's environment otherwise); its last line is JSON. */
function child<T>(endpoint: string, args: string[]): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env, DYNAMODB_ENDPOINT: endpoint };
    const proc = spawn(process.execPath, ['--import', 'tsx', resolve(here, 'results-job-child.ts'), ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`results-job-child ${args[0]} exited ${code}: ${out}`));
      resolvePromise(JSON.parse(out.trim().split('\n').at(-1)!) as T);
    });
  });
}

export async function measureResultsJob(lambdaMemoryMB: number, log: (line: string) => void): Promise<JobMemoryBench> {
  const dynamo = await startDynamoLocal({ use: 'tests' });
  try {
    log(`  writing ${JOB_BALLOTS.toLocaleString('en-US')} ballots of ${JOB_IDEAS} ideas…`);
    const { siteId, seedSeconds } = await child<{ siteId: number; seedSeconds: number }>(dynamo.endpoint, ['seed', String(JOB_IDEAS), String(JOB_BALLOTS)]);
    const rows: JobMemoryRow[] = [];
    let ballotBytes = 0;
    for (const mode of ['read', 'job'] as const) {
      const { ballotBytes: bytes, ...row } = await child<JobMemoryRow & { ballotBytes: number }>(dynamo.endpoint, [mode, String(siteId)]);
      if (mode === 'read') ballotBytes = bytes;
      log(`  ${mode}: ${row.ms} ms, ${JSON.stringify(row.commands)}, peak RSS ${row.peakRssMiB} MiB (baseline ${row.baselineRssMiB} MiB)${row.heldMiB !== undefined ? `, ballots hold ${row.heldMiB} MiB` : ''}`);
      rows.push(row);
    }
    return { ideas: JOB_IDEAS, ballots: JOB_BALLOTS, ballotBytes, lambdaMemoryMB, seedSeconds, rows };
  } finally {
    await dynamo.stop();
  }
}
