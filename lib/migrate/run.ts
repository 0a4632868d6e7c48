/**
 * `npm run migrate`: every site (the site list on GSI1, one page at a time) or the one given,
 * through `migrateSite`. Reports each site as it goes (`onSite`), so memory holds one page.
 */
import { listSites } from '#lib/store/sites/sites';
import { migrateSite, type SiteMigrationReport } from '#lib/migrate/site';

interface MigrateOptions {
  siteId?: number | undefined;
  dryRun: boolean;
  onSite?: (report: SiteMigrationReport) => void;
}

const SITE_PAGE = 50;

export async function migrate(options: MigrateOptions): Promise<SiteMigrationReport[]> {
  const reports: SiteMigrationReport[] = [];
  const one = async (siteId: number) => {
    const report = await migrateSite(siteId, { dryRun: options.dryRun });
    if (report) {
      reports.push(report);
      options.onSite?.(report);
    }
  };
  if (options.siteId !== undefined) {
    await one(options.siteId);
    return reports;
  }
  let cursor: string | undefined;
  do {
    const page = await listSites({ pageSize: SITE_PAGE, cursor });
    for (const site of page.items) await one(site.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return reports;
}

/** Ballots a run refused to seal (the site's log already holds every ballot): the run failed. */
export const refusedBallots = (reports: readonly SiteMigrationReport[]) => reports.reduce((n, r) => n + r.refused.length, 0);

/** True when a run wrote (or, dry, would write) nothing. */
export const nothingToMigrate = (reports: readonly SiteMigrationReport[]) => reports.every((r) => r.users + r.ideas + r.ballots + r.tallies + r.argCounts === 0);
