/**
 * `npm run job -- <name> [--site N] [--now ISO]`: runs one scheduled job once against the local
 * stack of `npm start` (same table; DynamoDB at DYNAMODB_ENDPOINT, else the running npm start's,
 * scripts/local-stack-env.ts),
 * with the same code as its Lambda (lib/jobs), and prints what it did. `--now` sets the job's clock,
 * to try a date in the future (vote-checkpoints still cuts its log no later than a minute before the
 * wall clock: votes cast until then must go into a later checkpoint); `--site` limits it to one site (whose job markers are first brought up
 * to date with its config). Exit code 0 when it ran, 1 when it failed or no stack runs, 2 on a usage
 * error or a site that does not exist.
 */
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { JOB_NAMES, isJobName } from '#schemas/job';
import { isIdText } from '#schemas/common';

const USAGE = `usage: npm run job -- <${JOB_NAMES.join('|')}> [--site N] [--now ISO-8601]`;

export interface JobCommand {
  name: (typeof JOB_NAMES)[number];
  siteId: number | undefined;
  now: Date;
}

/** Reads the command line; throws a usage message on anything it does not understand. */
export function parseJobCommand(argv: string[], clock: () => Date = () => new Date()): JobCommand {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { site: { type: 'string' }, now: { type: 'string' } },
  });
  const [name, ...rest] = positionals;
  if (!name || rest.length > 0 || !isJobName(name)) throw new Error(USAGE);
  let siteId: number | undefined;
  if (values.site !== undefined) {
    if (!isIdText(values.site)) throw new Error(`--site must be a site id (a positive integer)\n${USAGE}`);
    siteId = Number(values.site);
  }
  let now = clock();
  if (values.now !== undefined) {
    now = new Date(values.now);
    if (Number.isNaN(now.getTime())) throw new Error(`--now must be an ISO-8601 date, e.g. 2027-01-01T00:00:00Z\n${USAGE}`);
  }
  return { name, siteId, now };
}

const main = () =>
  runLocalScript('job', parseJobCommand, async (command: JobCommand) => {
    const { runJob, formatReport } = await import('#lib/jobs/index');
    console.log(`running ${command.name}${command.siteId ? ` on site ${command.siteId}` : ''} at ${command.now.toISOString()} (table ${process.env.TABLE_NAME} at ${process.env.DYNAMODB_ENDPOINT})`);
    console.log(formatReport(await runJob(command.name, { now: command.now, siteId: command.siteId })));
    return 0;
  }, { siteOf: (command) => command.siteId });

exitWhenMain(import.meta.url, main);
