/**
 * Brings one site's data written before this round up to date (scripts/migrate.ts):
 *   (a) its job markers, from its config, as a site update writes them (lifecycle);
 *   (b) GSI2 activity keys for users not anonymized that have none (lastActivityAt, else updatedAt,
 *       else createdAt);
 *   (c) index items for ideas without `indexKeys`, through the normal indexed write (discovery, 18);
 *   (d) a first seal (chain start) for ballots without `hash` (vote record), while the site's log is
 *       still taking them in: once a signed checkpoint says it holds every ballot, a ballot without a
 *       seal was written behind the log, and it is refused (reported, never sealed: seal-guard.ts);
 *   (e) one tally item per votable idea from the site's old tally shards, which then go.
 *       Run it right after deploying: until then a vote on an idea of an old site finds no tally and
 *       is refused (400), never miscounted.
 *   (f) each idea's argument count (`args` on its tally item, which argument writes move since the
 *       OpenStad surface): counted once and set while it still holds what was read, recounted when an
 *       argument write moved it meanwhile. Until it runs, `argCount` and the owner's "no edits after the
 *       first argument" rule see only the arguments written since the deploy.
 * Every write is conditioned on the item as read, so a rerun (or a concurrent writer) changes
 * nothing twice. Memory is one page of items at a time; requests are one Query per page plus a
 * constant number per item migrated.
 */
import { withDefaults } from '#lib/sites/config-defaults';
import { siteJobDues } from '#lib/sites/job-dues';
import { ideaIndexSpec } from '#lib/discovery/index-spec';
import { sealBallot } from '#lib/votes/seal';
import { sealRefusal } from '#lib/migrate/seal-guard';
import { getSite } from '#lib/store/sites/sites';
import { syncJobMarkers } from '#lib/store/jobs/jobs';
import { indexUserActivity, usersWithoutActivityIndexPage } from '#lib/store/users/migrate';
import {
  countArguments,
  deleteLegacyShards,
  ideasWithoutIndexPage,
  legacyTallies,
  putMigratedTally,
  sealStoredBallot,
  setTallyArgs,
  tallyArgsPage,
  unsealedBallotsPage,
} from '#lib/store/ideas/migrate';
import { readIdeaTallies } from '#lib/store/ideas/tallies';
import { getIdea, replaceIdea, tallyCopiesOf } from '#lib/store/ideas/ideas';
import { REPLAN, withReplan } from '#lib/store/db/replan';

export interface SiteMigrationReport {
  siteId: number;
  /** Job markers written from the config (0 on a dry run). */
  markers: boolean;
  users: number;
  ideas: number;
  ballots: number;
  /** Ideas given their own tally item from the old shards. */
  tallies: number;
  /** Ideas whose argument count was set (or corrected). */
  argCounts: number;
  /** Items that changed under the migration and were left to their own writer. */
  skipped: number;
  /** Ballots not sealed because the site's log already holds every ballot (or does not verify), and items of the ballot range that are no ballot (misplaced or malformed): each and why. */
  refused: string[];
}


export async function migrateSite(siteId: number, options: { dryRun: boolean }): Promise<SiteMigrationReport | undefined> {
  const stored = await getSite(siteId);
  if (!stored) return undefined;
  const report: SiteMigrationReport = { siteId, markers: false, users: 0, ideas: 0, ballots: 0, tallies: 0, argCounts: 0, skipped: 0, refused: [] };
  if (!options.dryRun) {
    // Same write as a site update: guarded by the site's updatedAt, so it never overrides a newer one.
    await syncJobMarkers(siteId, siteJobDues(withDefaults(stored.config), stored.updatedAt), stored.updatedAt);
    report.markers = true;
  }

  let start: Record<string, unknown> | undefined;
  do {
    const page = await usersWithoutActivityIndexPage(siteId, start);
    for (const user of page.items) {
      if (options.dryRun) report.users++;
      else if (await indexUserActivity(user, user.lastActivityAt ?? user.updatedAt ?? user.createdAt)) report.users++;
      else report.skipped++;
    }
    start = page.next;
  } while (start);

  do {
    const page = await ideasWithoutIndexPage(siteId, start);
    for (const ideaId of page.items) {
      if (options.dryRun) report.ideas++;
      else if (await indexIdea(siteId, ideaId)) report.ideas++;
      else report.skipped++;
    }
    start = page.next;
  } while (start);

  let refusal: Promise<string | undefined> | undefined;
  do {
    const page = await unsealedBallotsPage(siteId, start);
    for (const sk of page.misplaced) report.refused.push(`the item ${sk} in the ballot range is not its user's ballot (no write puts one there): not sealed; run verify-votes, then remove it`);
    for (const { key, problem } of page.malformed) report.refused.push(`a malformed item in the ballot range: ${key} (${problem}): not sealed; run verify-votes, then remove it`);
    for (const ballot of page.items) {
      const refused = await (refusal ??= sealRefusal(siteId));
      if (refused !== undefined) {
        report.refused.push(`the ballot of user ${ballot.userId} (version ${ballot.version}) is not sealed: ${refused}`);
        continue;
      }
      if (options.dryRun) {
        report.ballots++;
        continue;
      }
      // The first entry of its chain in the vote log: the state as stored, with no entry before it.
      const seal = sealBallot(undefined, { siteId, userId: ballot.userId, version: ballot.version, votes: ballot.votes }, { migrated: true });
      if (await sealStoredBallot(siteId, ballot.userId, ballot.version, seal)) report.ballots++;
      else report.skipped++;
    }
    start = page.next;
  } while (start);

  const legacy = await legacyTallies(siteId);
  for (const [ideaId, tally] of legacy.tallies) {
    const idea = await getIdea(siteId, ideaId);
    if (!idea) continue; // deleted meanwhile: its cascade removed its votes
    if (options.dryRun) report.tallies++;
    else if (await putMigratedTally(siteId, ideaId, tally, tallyCopiesOf(idea))) report.tallies++;
    else report.skipped++;
  }
  if (!options.dryRun && legacy.shardKeys.length > 0) await deleteLegacyShards(legacy.shardKeys);

  do {
    const page = await tallyArgsPage(siteId, start);
    for (const { ideaId, args } of page.items) {
      const outcome = await countArgsOf(siteId, ideaId, args, options.dryRun);
      if (outcome === 'set') report.argCounts++;
      else if (outcome === 'moving') report.skipped++;
    }
    start = page.next;
  } while (start);
  return report;
}

/** Sets one idea's argument count when it differs from its arguments; recounted while argument writes move it. */
async function countArgsOf(siteId: number, ideaId: number, stored: number | undefined, dryRun: boolean): Promise<'set' | 'same' | 'moving'> {
  let read = stored;
  return withReplan<'set' | 'same'>(
    async (attempt) => {
      if (attempt > 1) read = (await tallyArgsOf(siteId, ideaId)) ?? undefined;
      const count = await countArguments(siteId, ideaId);
      if (count === (read ?? 0)) return 'same';
      if (dryRun) return 'set';
      return (await setTallyArgs(siteId, ideaId, count, read)) ? 'set' : REPLAN;
    },
    // Still moving after every attempt: its own argument writes keep the count; counted as skipped.
    () => new GaveUp(),
  ).catch((err: unknown) => {
    if (err instanceof GaveUp) return 'moving' as const;
    throw err;
  });
}

const tallyArgsOf = async (siteId: number, ideaId: number) => (await readIdeaTallies(siteId, [ideaId], { consistent: true })).get(ideaId)?.args;

/** Rewrites an idea through the indexed write (same content, next version); retried on a lost race. */
async function indexIdea(siteId: number, ideaId: number): Promise<boolean> {
  return withReplan(
    async () => {
      const item = await getIdea(siteId, ideaId);
      if (!item) return false;
      const next = { ...item, version: item.version + 1 };
      const outcome = await replaceIdea(next, item.version, { index: ideaIndexSpec(next) });
      return outcome === 'stale' ? REPLAN : outcome === 'ok';
    },
    // Still changing after every attempt: its own writers keep it indexed; counted as skipped.
    () => new GaveUp(),
  ).catch((err: unknown) => {
    if (err instanceof GaveUp) return false;
    throw err;
  });
}

class GaveUp extends Error {}

/** One line per site, for the script. */
export function formatSiteMigration(report: SiteMigrationReport, dryRun: boolean): string {
  const verb = dryRun ? 'would migrate' : 'migrated';
  const total = report.users + report.ideas + report.ballots + report.tallies + report.argCounts;
  const refused = report.refused.map((line) => `\n  refused: ${line}`).join('');
  if (total === 0 && report.skipped === 0) return `site ${report.siteId}: nothing to migrate${report.markers ? ' (job markers synced)' : ''}${refused}`;
  return `site ${report.siteId}: ${verb} ${report.users} users, ${report.ideas} ideas, ${report.ballots} ballots, ${report.tallies} tallies, ${report.argCounts} argument counts${report.skipped ? `, ${report.skipped} changed meanwhile (left to their writer)` : ''}${report.markers ? '; job markers synced' : ''}${refused}`;
}
