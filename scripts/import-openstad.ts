/**
 * `npm run import-openstad -- --database NAME [--host H] [--port P] [--user U] [--source NAME] [--site N ...] [--dry-run]`:
 * copies an OpenStad v1 MySQL/MariaDB database into the table (scripts/import-openstad/run.ts), keeping
 * ids. The password comes from OPENSTAD_DB_PASSWORD (never the command line: it would show in the
 * process list and the shell history). Locally it writes to the table of `npm start` (DYNAMODB_ENDPOINT,
 * else the running npm start's: scripts/local-stack-env.ts); on AWS run it with TABLE_NAME set. Idempotent and resumable: a rerun
 * copies what is missing and reports the rest as already there. Exit 0 done (the report lists what was
 * not copied and why), 1 failed, 2 usage error. After it: `npm run verify-votes -- --site N`.
 */
import { BlockList, isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { isIdText } from '#schemas/common';

const USAGE =
  'usage: npm run import-openstad -- --database NAME [--host 127.0.0.1] [--port 3306] [--user root] [--source NAME] [--site N]... [--dry-run]\n' +
  '       (the database password in OPENSTAD_DB_PASSWORD; --source names the OpenStad installation, required with a loopback host)';

export interface ImportCommand {
  host: string;
  port: number;
  user: string;
  database: string;
  /** The id reservation's key (scripts/import-openstad/run.ts): which OpenStad database this is. */
  sourceKey: string;
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
      source: { type: 'string' },
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
  const port = Number(values.port);
  return {
    host: values.host,
    port,
    user: values.user,
    database: values.database,
    sourceKey: sourceKeyOf(values.host, port, values.database, values.source),
    siteIds,
    dryRun: values['dry-run'] === true,
  };
}

const LOOPBACK_ADDRESSES = new BlockList();
LOOPBACK_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK_ADDRESSES.addAddress('0.0.0.0', 'ipv4');
LOOPBACK_ADDRESSES.addAddress('::1', 'ipv6');
LOOPBACK_ADDRESSES.addAddress('::', 'ipv6');

/**
 * A host that reaches this machine, however it is spelled: the URL parser writes an address the way a
 * resolver reads it (`127.1`, `2130706433` and `0x7f.1` are 127.0.0.1; `0:0:0:0:0:0:0:1` is ::1), the
 * block list also matches IPv4-mapped IPv6 (`::ffff:127.0.0.1`), and `localhost` names end in a
 * dot or not. A name that some resolver maps to a loopback address is not seen here.
 */
export function isLoopbackHost(host: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}`).hostname;
  } catch {
    return false;
  }
  const address = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family !== 0) return LOOPBACK_ADDRESSES.check(address, family === 4 ? 'ipv4' : 'ipv6');
  const name = address.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The key of the source's id reservation, and of what the import knows it copied: it must name the
 * OpenStad database itself, not the way it is reached. A loopback host is a tunnel or a local copy
 * (two cities' databases, each called openstad_api behind a tunnel on 127.0.0.1:3306, would share one
 * key, and the second city's users would be taken for users deleted here), so it needs `--source`.
 * Without it a reachable host keeps the key earlier versions made (`openstad:<host>:<port>/<database>`);
 * `--source X` makes `openstad:X`, so an import begun through a tunnel before `--source` existed
 * continues with `--source 127.0.0.1:3306/<database>` (its old key) for that one database.
 */
export function sourceKeyOf(host: string, port: number, database: string, source: string | undefined): string {
  if (source !== undefined) {
    if (!/^[\w.:/@-]{1,200}$/.test(source)) throw new Error(`--source must be 1 to 200 letters, digits or . _ : / @ -\n${USAGE}`);
    return `openstad:${source}`;
  }
  if (isLoopbackHost(host)) {
    throw new Error(
      `--host ${host} is a loopback address (a tunnel or a local copy): it does not say which OpenStad database this is. ` +
        `Name it with --source (e.g. --source amsterdam); to continue an import begun this way before --source existed, give --source ${host}:${port}/${database}\n${USAGE}`,
    );
  }
  return `openstad:${host}:${port}/${database}`;
}

/** Runs the import; the exit code and its report. */
export async function importCommand(command: ImportCommand, password = process.env.OPENSTAD_DB_PASSWORD ?? ''): Promise<{ code: 0 | 1; output: string }> {
  const { openSource } = await import('./import-openstad/source.ts');
  const { importOpenStad, formatImportReport } = await import('./import-openstad/run.ts');
  const source = await openSource({ host: command.host, port: command.port, user: command.user, password, database: command.database });
  try {
    const reports = await importOpenStad(source, {
      sourceKey: command.sourceKey,
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
