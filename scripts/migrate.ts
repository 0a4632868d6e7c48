/**
 * `npm run migrate -- [--site N] [--dry-run]`: brings data stored before the lifecycle, discovery
 * and vote-record changes up to date (lib/migrate). Locally it uses the table of `npm start`
 * (DYNAMODB_ENDPOINT, default http://127.0.0.1:8000); on AWS run it with TABLE_NAME set.
 * Idempotent: a rerun reports nothing to migrate. Exit 0 done, 1 failed, 2 usage error.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { useLocalStackEnv } from './local-stack-env.ts';

const USAGE = 'usage: npm run migrate -- [--site N] [--dry-run]';

export function parseMigrateCommand(argv: string[]): { siteId: number | undefined; dryRun: boolean } {
  const { values } = parseArgs({ args: argv, options: { site: { type: 'string' }, 'dry-run': { type: 'boolean' } } });
  let siteId: number | undefined;
  if (values.site !== undefined) {
    if (!/^[1-9][0-9]{0,14}$/.test(values.site)) throw new Error(`--site must be a site id (a positive integer)\n${USAGE}`);
    siteId = Number(values.site);
  }
  return { siteId, dryRun: values['dry-run'] === true };
}

async function main(): Promise<number> {
  let command: ReturnType<typeof parseMigrateCommand>;
  try {
    command = parseMigrateCommand(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  useLocalStackEnv();
  const { migrate, nothingToMigrate } = await import('#lib/migrate/run');
  const { formatSiteMigration } = await import('#lib/migrate/site');
  console.log(`migrating ${command.siteId ? `site ${command.siteId}` : 'every site'}${command.dryRun ? ' (dry run: counting only)' : ''} (table ${process.env.TABLE_NAME})`);
  try {
    const reports = await migrate({ ...command, onSite: (r) => console.log(formatSiteMigration(r, command.dryRun)) });
    if (reports.length === 0) console.log(command.siteId ? `no site ${command.siteId}` : 'no sites');
    else if (nothingToMigrate(reports)) console.log('nothing to migrate: every item is up to date');
    return 0;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') console.error(`no table ${process.env.TABLE_NAME}: is \`npm start\` running?`);
    else console.error(`migrate failed: ${(err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
