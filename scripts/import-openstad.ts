/**
 * `npm run import-openstad -- --database NAME [--host H] [--port P] [--user U] [--site N ...] [--dry-run]`:
 * copies an OpenStad v1 MySQL/MariaDB database into the table (scripts/import-openstad/run.ts), keeping
 * ids. The password comes from OPENSTAD_DB_PASSWORD (never the command line: it would show in the
 * process list and the shell history). Locally it writes to the table of `npm start` (DYNAMODB_ENDPOINT,
 * else the running npm start's: scripts/local-stack-env.ts); on AWS run it with TABLE_NAME set. Idempotent and resumable: a rerun
 * copies what is missing and reports the rest as already there. Exit 0 done (the report lists what was
 * not copied and why), 1 failed, 2 usage error. After it: `npm run verify-votes -- --site N`.
 */
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { isIdText } from '#schemas/common';

const USAGE =
  'usage: npm run import-openstad -- --database NAME [--host 127.0.0.1] [--port 3306] [--user root] [--site N]... [--dry-run]\n' +
  '       (the database password in OPENSTAD_DB_PASSWORD)';

export interface ImportCommand {
  host: string;
  port: number;
  user: string;
  database: string;
  siteIds: number[] | undefined;
  dryRun: boolean;
}

export function parseImportCommand(argv: string[]): ImportCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '3306' },
      user: { type: 'string', default: 'root' },
      database: { type: 'string' },
      site: { type: 'string', multiple: true },
      'dry-run': { type: 'boolean' },
    },
  });
  if (positionals.length > 0 || !values.database) throw new Error(USAGE);
  if (!/^\d{1,5}$/.test(values.port)) throw new Error(`--port must be a port number\n${USAGE}`);
  const siteIds = values.site?.map((site) => {
    if (!isIdText(site)) throw new Error(`--site must be a site id (a positive integer)\n${USAGE}`);
    return Number(site);
  });
  return { host: values.host, port: Number(values.port), user: values.user, database: values.database, siteIds, dryRun: values['dry-run'] === true };
}

/** Runs the import; the exit code and its report. */
export async function importCommand(command: ImportCommand, password = process.env.OPENSTAD_DB_PASSWORD ?? ''): Promise<{ code: 0 | 1; output: string }> {
  const { openSource } = await import('./import-openstad/source.ts');
  const { importOpenStad, formatImportReport } = await import('./import-openstad/run.ts');
  const source = await openSource({ host: command.host, port: command.port, user: command.user, password, database: command.database });
  try {
    const reports = await importOpenStad(source, {
      sourceKey: `openstad:${command.host}:${command.port}/${command.database}`,
      siteIds: command.siteIds,
      dryRun: command.dryRun,
    });
    const text = reports.map((report) => formatImportReport(report, command.dryRun));
    if (reports.length === 0) text.push(command.siteIds ? `no site ${command.siteIds.join(', ')} in ${command.database}` : `no sites in ${command.database}`);
    return { code: 0, output: text.join('\n') };
  } finally {
    await source.close();
  }
}

const main = () =>
  runLocalScript('import-openstad', parseImportCommand, async (command) => {
    console.log(
      `importing ${command.siteIds ? `site ${command.siteIds.join(', ')}` : 'every site'} of ${command.database} on ${command.host}:${command.port}` +
        `${command.dryRun ? ' (dry run: nothing is written)' : ''} into table ${process.env.TABLE_NAME}`,
    );
    const { code, output } = await importCommand(command);
    console.log(output);
    return code;
  });

exitWhenMain(import.meta.url, main);
