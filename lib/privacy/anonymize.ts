/**
 * The four anonymization paths (spec "User", rules 1-4; CONTRACT "Anonymization").
 *
 * Who may (checked in the plan, before anything is read about other sites or written anywhere):
 * `access.user.actOn`, the one rule for acting on a user; the `all` paths only for the person
 * themself or a service token (a site's staff have no authority over the person's other sites).
 *
 * `will-anonymize(all)` reads the plan (lib/privacy/anonymize-plan.ts) and writes nothing.
 * `do-anonymize(all)` answers with the same plan, read before anything is written, and then:
 *
 *   1. deletes the auth-server user when no other site still has it (always for `all`). The auth
 *      server goes FIRST: when it fails the answer is 502 and nothing has changed here;
 *   2. per site user, other sites first and this site's user last (so a retry from this site still
 *      finds the rest through its link):
 *        a. while voting is open on that site, removes the user's votes: the ballot emptied and the
 *           tallies lowered in one transaction (tallies stay exact);
 *        b. deletes the user's newsletter signups;
 *        c. replaces the user item by its anonymized form and removes the auth-server link, in one
 *           transaction (lib/store/ballots/anonymize.ts): from then on their tokens are refused and their
 *           next login makes a fresh user.
 *
 * A malformed item under the user's ballot key (a writer with table access put it there) is left in
 * place: it counts and shows nowhere (lib/store/ballots/ballots.ts `wellFormedBallots`), so removing
 * it would change no count, but it is the evidence verify-votes reports, and no sealed state can be
 * written on it (docs/results.md "Malformed items"); the operator removes it.
 *
 * Every step is idempotent and each site's link goes last, so a retry after a failure halfway
 * finishes the job (the auth-server delete treats "already gone" as done). Only the target person's
 * items are read or written.
 *
 * Ideas, articles and arguments stay: their text is the citizen's contribution to a public debate
 * (OpenStad keeps them too); they keep pointing at the user id, and `includeUser` now shows the
 * anonymized name.
 */
import type { Caller } from '#lib/auth/caller';
import { conflict } from '#lib/errors';
import * as authServer from '#lib/auth-server/client';
import { authServerByUrl } from '#lib/auth-server/config';
import type { Site } from '#lib/sites/site';
import { sealBallot } from '#lib/votes/seal';
import { checkpointLateEntry } from '#lib/votes/late-entry';
import { clearBallot, putAnonymizedUser } from '#lib/store/ballots/anonymize';
import { getUser } from '#lib/store/users/users';
import { getShownBallot, type BallotItem } from '#lib/store/ballots/ballots';
import { deleteSignup } from '#lib/store/newsletter/newsletter';
import type { UserItem } from '#lib/store/users/users';
import { beforeState, planAnonymization, type AnonymizeScope, type SiteUserPlan } from '#lib/privacy/anonymize-plan';
import { anonymizedUser, isAnonymized } from '#lib/privacy/anonymized-user';
import type { AnonymizationResponse } from '#schemas/user-activity';
import { REPLAN, withReplan } from '#lib/store/db/replan';



export async function willAnonymize(site: Site, caller: Caller, userId: number, scope: AnonymizeScope): Promise<AnonymizationResponse> {
  return beforeState(await planAnonymization(site, caller, userId, scope, { forWrite: false }), caller);
}

/** @param options.now the clock of a scheduled job (lib/jobs); requests use the wall clock. */
export async function doAnonymize(
  site: Site,
  caller: Caller,
  userId: number,
  scope: AnonymizeScope,
  options: { now?: Date } = {},
): Promise<AnonymizationResponse> {
  const clock = () => options.now ?? new Date();
  const plan = await planAnonymization(site, caller, userId, scope, { forWrite: true, now: clock() });
  const before = beforeState(plan, caller);

  if (plan.authDelete) {
    const server = authServerByUrl(site.id, site.config, plan.authDelete.authServer);
    await authServer.deleteUser(server, plan.authDelete.externalUserId);
  }
  const target = plan.steps[plan.steps.length - 1]!;
  const others = plan.steps.slice(0, -1);
  // Other sites in parallel, each on its own; all of them settle before the target's link goes.
  const outcomes = await Promise.allSettled(others.map((step) => anonymizeSiteUser(step, clock)));
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
  await anonymizeSiteUser(target, clock);
  return before;
}

async function anonymizeSiteUser(step: SiteUserPlan, clock: () => Date): Promise<void> {
  if (step.votingOpen) await removeVotes(step.user, step.owned.ballot, clock);
  for (const signup of step.owned.signups) await deleteSignup(signup);
  await anonymizeRecord(step, clock);
}

async function removeVotes(user: UserItem, read: BallotItem | undefined, clock: () => Date): Promise<void> {
  const clearedAt = await withReplan(
    async (attempt) => {
      // A vote round of the user (or an idea delete) moved the ballot: re-read and remove what it holds now.
      const ballot = attempt === 1 ? read : await getShownBallot(user.siteId, user.id, true);
      if (!ballot || Object.keys(ballot.votes ?? {}).length === 0) return undefined;
      const now = clock().toISOString();
      const seal = sealBallot(ballot, { siteId: ballot.siteId, userId: ballot.userId, version: ballot.version + 1, votes: {} });
      return (await clearBallot(ballot, now, seal)) === 'done' ? now : REPLAN;
    },
    () => conflict(`The votes of user ${user.id} kept changing while being removed; please try again`),
  );
  // Anonymization goes on after the project has ended: the emptied ballot's entry wakes the checkpoints.
  if (clearedAt !== undefined) await checkpointLateEntry(user.siteId, clearedAt);
}

async function anonymizeRecord(step: SiteUserPlan, clock: () => Date): Promise<void> {
  await withReplan(
    async (attempt) => {
      // The user was written since it was read (a login, an update, or a lagging index entry): re-read.
      const user = attempt === 1 ? step.user : await getUser(step.user.siteId, step.user.id, { consistent: true });
      if (!user || isAnonymized(user)) return;
      const now = clock().toISOString();
      return (await putAnonymizedUser(user, anonymizedUser(user, step.site.config, now))) === 'done' ? undefined : REPLAN;
    },
    () => conflict(`User ${step.user.id} kept changing while being anonymized; please try again`),
  );
}
