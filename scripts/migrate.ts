/**
 * `npm run migrate -- [--site N] [--dry-run]`: brings data stored before the lifecycle, discovery
 * and vote-record changes up to date (lib/migrate). Locally it uses the table of `npm start`
 * (DYNAMODB_ENDPOINT, else the running npm start's); on AWS run it with TABLE_NAME set.
 * Idempotent: a rerun reports nothing to migrate. Exit 0 done; 1 failed (or no stack), or a ballot
 * without a seal was refused because its site's vote log already holds every ballot (a ballot written
 * behind the log: verify-votes reports it) or a checkpoint of its site does not verify; 2 usage error or a `--site` that does not exist.
 */
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { isIdText } from '#schemas/common';

const USAGE = 'usage: npm run migrate -- [--site N] [--dry-run]';

export function parseMigrateCommand(argv: string[]): { siteId: number | undefined; dryRun: boolean } {
  const { values } = parseArgs({ args: argv, options: { site: { type: 'string' }, 'dry-run': { type: 'boolean' } } });
  let siteId: number | undefined;
  if (values.site !== undefined) {
    if (!isIdText(values.site)) throw new Error(`--site must be a site id (a positive integer)\n${USAGE}`);
    siteId = Number(values.site);
  }
  return { siteId, dryRun: values['dry-run'] === true };
}

const main = () =>
  runLocalScript('migrate', parseMigrateCommand, async (command) => {
    const { migrate, nothingToMigrate, refusedBallots } = await import('#lib/migrate/run');
    const { formatSiteMigration } = await import('#lib/migrate/site');
    console.log(`migrating ${command.siteId ? `site ${command.siteId}` : 'every site'}${command.dryRun ? ' (dry run: counting only)' : ''} (table ${process.env.TABLE_NAME})`);
    const reports = await migrate({ ...command, onSite: (r) => console.log(formatSiteMigration(r, command.dryRun)) });
    if (reports.length === 0) console.log(command.siteId ? `no site ${command.siteId}` : 'no sites');
    else if (nothingToMigrate(reports) && refusedBallots(reports) === 0) console.log('nothing to migrate: every item is up to date');
    const refused = refusedBallots(reports);
    if (refused > 0) {
      console.error(`${refused} ballot(s) not sealed, each refused above: run npm run verify-votes -- --site N for their sites`);
      return 1;
    }
    return 0;
  }, { siteOf: (command) => command.siteId });

exitWhenMain(import.meta.url, main);
