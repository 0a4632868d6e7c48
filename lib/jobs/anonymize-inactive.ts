/**
 * anonymize-inactive: a user without activity (login or write on the site, `lastActivityAt`) for
 * `warnUsersAfterXDaysOfInactivity` days is warned once (a notification in the outbox, `warnedAt` on
 * the user, one transaction); a warned user still inactive after
 * `anonymizeUsersAfterXDaysOfInactivity` days, and warned at least the difference ago, is anonymized.
 * New activity clears the warning (lib/store/users/users.ts).
 *
 * Both kinds of due user are found on the site's activity index (GSI2 `USERS#<s>`: `A#<activity>`
 * before the warning, `W#<warnedAt>` after), oldest first, so a run reads only the due users plus one
 * more per list, and the marker falls due again when the next of them does.
 */
import { anonymizeByJob } from '#lib/jobs/anonymize-user';
import { inactivityRule } from '#lib/sites/job-dues';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { addDays, earliest } from '#lib/sites/dates';
import { inactivityWarning, pendingNotification } from '#lib/notifications/messages';
import { newId } from '#lib/store/db/ids';
import { updateJobMarker } from '#lib/store/jobs/jobs';
import { notificationPut } from '#lib/store/notifications/notifications';
import { markUserWarned, usersByActivity, type IndexedUser } from '#lib/store/users/users';

/** Users read per list per site per run. */
const BATCH = 50;

export const run = (options: JobOptions): Promise<JobReport> =>
  runOverDueSites('anonymize-inactive', options, (ctx) => anonymizeInactive(ctx, options.now));

async function anonymizeInactive(ctx: SiteContext, clock: Date): Promise<void> {
  const { marker, site, now, budget, report } = ctx;
  const rule = inactivityRule(site.config);
  if (!rule) {
    await updateJobMarker(marker, { dueAt: null });
    return;
  }
  const limit = Math.min(BATCH, Math.max(budget.left, 0)) + 1;
  const [active, warned] = await Promise.all([
    usersByActivity(site.id, 'active', limit),
    usersByActivity(site.id, 'warned', limit),
  ]);

  // Warned users first: they have waited longest.
  // Due when the warning is `graceDays` old and the user has been inactive `anonymizeDays`.
  const anonymizeAt = (u: IndexedUser) => latest(addDays(u.at, rule.graceDays), addDays(lastActivity(u), rule.anonymizeDays));
  const nextAnonymize = await walk(warned, limit, now, addDays(now, rule.graceDays), budget, anonymizeAt, (u) =>
    anonymizeByJob(site, u.user.id, clock, report, `inactive since ${lastActivity(u)}`),
  );
  const nextWarn = await walk(active, limit, now, addDays(now, rule.warnDays), budget, (u) => addDays(u.at, rule.warnDays), (u) =>
    warn(ctx, u),
  );
  report.nextDueAt = earliest(nextAnonymize, nextWarn);
  await updateJobMarker(marker, { dueAt: report.nextDueAt });
}

const lastActivity = (u: IndexedUser): string => u.user.lastActivityAt ?? u.user.createdAt;
const latest = (a: string, b: string) => (a > b ? a : b);

/**
 * Works through one list (oldest first) while its users are due and the budget lasts. Returns when
 * this list has work next: the first user not yet due, now (cut off, or a failure to retry), or
 * `whenEmpty` (nobody left: anyone added from now on falls due that late at the earliest).
 */
async function walk(
  users: IndexedUser[],
  limit: number,
  now: string,
  whenEmpty: string,
  budget: { take(): boolean },
  dueAtOf: (u: IndexedUser) => string,
  act: (u: IndexedUser) => Promise<boolean>,
): Promise<string> {
  let next: string | null = null;
  for (const u of users) {
    const dueAt = dueAtOf(u);
    if (dueAt > now) {
      next = earliest(next, dueAt);
      // Later entries of the index are due later (with the config as it is), so stop here.
      break;
    }
    if (!budget.take() || !(await act(u))) return now;
  }
  if (next !== null) return next;
  return users.length >= limit ? now : whenEmpty;
}

/** The warning: the outbox record and the user's move to `W#<now>` in one transaction (only if still inactive). */
async function warn({ site, now, report }: SiteContext, u: IndexedUser): Promise<boolean> {
  const draft = inactivityWarning(site, site.config, u.user);
  // Without an e-mail address there is nobody to write to; the warning still counts, so the grace period runs.
  const notification = draft.to ? pendingNotification(site.id, newId(), draft, now) : undefined;
  const warned = await markUserWarned(site.id, u.user.id, u.indexKey, now, notification ? [notificationPut(notification)] : []);
  if (warned) report.done.push(`user ${u.user.id} warned${notification ? ` (notification ${notification.id})` : ' (no e-mail address)'}`);
  // Not warned: active again, or warned by an overlapping run; either way nothing to do now.
  return true;
}
