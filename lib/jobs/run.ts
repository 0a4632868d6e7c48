/**
 * What every job run shares: its clock, its bounds, the loop over the sites whose marker is due, and
 * the report it prints.
 *
 * Bounds: on Lambda a run works until STOP_BEFORE_DEADLINE_MS before its deadline
 * (`context.getRemainingTimeInMillis()`, lib/jobs/lambda.ts), over at most DEADLINE_LIMITS.sites due
 * sites; `npm run job` and the tests bound it by units of work instead (`limits`). What is left stays
 * due on its marker and the next run continues there. The request count of a run is therefore the
 * Query for the markers, plus per site a few reads and one marker write, plus a constant number per
 * unit of work.
 */
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import { siteJobDues } from '#lib/sites/job-dues';
import { dueJobMarkers, getJobMarker, syncJobMarkers, type JobMarker } from '#lib/store/jobs/jobs';
import { getSite } from '#lib/store/sites/sites';
import type { JobName } from '#schemas/job';

export interface JobLimits {
  /** Due sites looked at per run. */
  sites: number;
  /** Units of work per run, over all sites. */
  units: number;
}

/** A run without a deadline (`npm run job`, tests). */
const DEFAULT_LIMITS: JobLimits = { sites: 25, units: 100 };
/** A run with a deadline: units are bounded by time alone. */
const DEADLINE_LIMITS: JobLimits = { sites: 100, units: Number.POSITIVE_INFINITY };
/**
 * Time kept free before the deadline: the longest unit (an anonymization that waits for the auth
 * server, lib/oauth/client.ts times out at 5 s, after DynamoDB retries) plus the markers' writes.
 */
export const STOP_BEFORE_DEADLINE_MS = 30_000;

export interface JobOptions {
  /** The job's clock: every decision and every timestamp it writes. */
  now: Date;
  /** Only this site (`npm run job -- <name> --site N`): its markers are first brought up to date with its config. */
  siteId?: number | undefined;
  limits?: Partial<JobLimits>;
  /** Milliseconds left before the run must have returned (Lambda's getRemainingTimeInMillis). */
  remainingMs?: () => number;
}

export interface SiteReport {
  siteId: number;
  /** One line per thing done (`idea 12 CLOSED`, `user 7 warned`), for the operator. */
  done: string[];
  /** Work that failed and stays due (e.g. the auth server did not answer). */
  failed: string[];
  /** When the job has work on this site next (null: none). */
  nextDueAt: string | null;
}

export interface JobReport {
  job: JobName;
  now: string;
  sites: SiteReport[];
  /** Units of work done. */
  units: number;
  /** True when the run stopped at a bound with due work left (the next run continues). */
  more: boolean;
}

/** The units still allowed in this run: by count, and by the time left before its deadline. */
export class Budget {
  used = 0;
  constructor(
    public left: number,
    private readonly remainingMs: () => number = () => Number.POSITIVE_INFINITY,
  ) {}
  /** False once the count is spent or the deadline is near; the unit is then left for the next run. */
  take(): boolean {
    if (this.exhausted()) return false;
    this.left -= 1;
    this.used += 1;
    return true;
  }
  exhausted(): boolean {
    return this.left <= 0 || this.remainingMs() < STOP_BEFORE_DEADLINE_MS;
  }
}

export interface SiteContext {
  marker: JobMarker;
  /** The site as stored (`stored.config` is the admin's config, `site.config` merged with defaults). */
  stored: NonNullable<Awaited<ReturnType<typeof getSite>>>;
  site: Site;
  now: string;
  budget: Budget;
  report: SiteReport;
}

/** The per-site step of a job; it moves the marker on itself (its write is part of its work). */
type SiteStep = (ctx: SiteContext) => Promise<void>;

export async function runOverDueSites(job: JobName, options: JobOptions, step: SiteStep): Promise<JobReport> {
  const now = options.now.toISOString();
  const limits = { ...(options.remainingMs ? DEADLINE_LIMITS : DEFAULT_LIMITS), ...options.limits };
  const budget = new Budget(limits.units, options.remainingMs);
  const markers = options.siteId !== undefined ? await markerOfOneSite(job, options.siteId) : await dueJobMarkers(job, now, limits.sites);
  const reports: SiteReport[] = [];
  let cutOff = false;
  for (const marker of markers) {
    if (marker.dueAt === null || marker.dueAt > now) continue;
    if (budget.exhausted()) {
      cutOff = true;
      break;
    }
    const stored = await getSite(marker.siteId);
    // A site deleted meanwhile took its markers along; an index entry that lags behind is skipped.
    if (!stored) continue;
    const report: SiteReport = { siteId: marker.siteId, done: [], failed: [], nextDueAt: null };
    await step({ marker, stored, site: { ...stored, config: withDefaults(stored.config) }, now, budget, report });
    reports.push(report);
  }
  const more =
    cutOff || reports.some((r) => r.nextDueAt !== null && r.nextDueAt <= now) || (options.siteId === undefined && markers.length === limits.sites);
  return { job, now, sites: reports, units: budget.used, more };
}

/** `--site N`: the site's markers are synced with its config first (sites created before the jobs existed have none). */
async function markerOfOneSite(job: JobName, siteId: number): Promise<JobMarker[]> {
  const stored = await getSite(siteId);
  if (!stored) return [];
  await syncJobMarkers(siteId, siteJobDues(withDefaults(stored.config), stored.updatedAt), stored.updatedAt);
  const marker = await getJobMarker(siteId, job);
  return marker ? [marker] : [];
}

/** One line per site and thing done, for `npm run job` and the Lambda's log. */
export function formatReport(report: JobReport): string {
  const lines = [`${report.job} at ${report.now}: ${report.units} unit(s) of work on ${report.sites.length} site(s)${report.more ? ', more due (next run continues)' : ''}`];
  for (const site of report.sites) {
    lines.push(`  site ${site.siteId}: ${site.done.length ? site.done.join(', ') : 'nothing due'}; next due ${site.nextDueAt ?? 'never'}`);
    for (const failure of site.failed) lines.push(`    failed: ${failure}`);
  }
  return lines.join('\n');
}
