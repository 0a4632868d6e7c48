/**
 * anonymize-ended, driven by an injected clock: `anonymizeUsersXDaysAfterEndDate` days after the end
 * date every user of the ended project is anonymized as by do-anonymize (votes removed with the
 * tallies kept exact while voting is open). The first test goes through the GSI2 index of due
 * markers with dates in 1965, when no other test's marker is due; the others run on their site only.
 */
import { describe, expect, it } from 'vitest';
import { runJob } from '#lib/jobs/index';
import { countRequests } from '#tests/support/request-counter';
import { castVotes, createIdeas, expectTalliesMatchBallots, storedTallies } from '#tests/support/vote-fixtures';
import { createLifecycleSite, getStoredUser, putUser, runOn, siteData, updateSiteConfig } from './helpers.ts';

const votingOpen = { votes: { isActive: true, withExisting: 'replace' as const } };

/** A site whose users voted while it was open, then ended at `endDate` with anonymization after 10 days. */
async function endedSiteWithVoters(n: number, endDate: string) {
  const site = await createLifecycleSite(votingOpen);
  const ideas = await createIdeas(site.id, 2);
  const users = [];
  for (let i = 0; i < n; i++) {
    const user = await putUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: ideas[i % 2]!, opinion: 'yes' }])).status).toBe(200);
    users.push(user);
  }
  await updateSiteConfig(site.id, { ...votingOpen, project: { endDate, projectHasEnded: true }, anonymize: { anonymizeUsersXDaysAfterEndDate: 10 } });
  return { site, users, ideas };
}

describe('anonymize-ended', () => {
  it('anonymizes every user once the days after the end date have passed, tallies exact, once', async () => {
    const { site, users, ideas } = await endedSiteWithVoters(3, '1965-01-01T00:00:00.000Z');
    await runJob('anonymize-ended', { now: new Date('1965-01-10T00:00:00Z') });
    expect((await getStoredUser(site.id, users[0]!.id))!.anonymizedAt).toBeUndefined();

    const now = new Date('1965-01-12T00:00:00Z');
    const report = await runJob('anonymize-ended', { now });
    // Anonymizations run CONCURRENCY at a time, so the report lists them in the order they finished.
    expect(report.sites.find((s) => s.siteId === site.id)!.done.toSorted()).toEqual(users.map((u) => `user ${u.id} anonymized (project ended)`).toSorted());
    for (const user of users) expect(await getStoredUser(site.id, user.id)).toMatchObject({ anonymizedAt: now.toISOString(), email: null });
    // The votes went with them (voting is open here) and the tallies still equal the ballots.
    await expectTalliesMatchBallots(site.id);
    expect((await storedTallies(site.id))[ideas[0]!]?.yes ?? 0).toBe(0);

    const before = await siteData(site.id);
    await runJob('anonymize-ended', { now });
    await runJob('anonymize-ended', { now, siteId: site.id });
    expect(await siteData(site.id)).toEqual(before);
  });

  it('two overlapping runs anonymize each user once, tallies exact', async () => {
    const { site, users } = await endedSiteWithVoters(4, '1968-01-01T00:00:00.000Z');
    const now = new Date('1968-02-01T00:00:00Z');
    await Promise.all([runOn('anonymize-ended', site.id, now), runOn('anonymize-ended', site.id, now)]);
    await runOn('anonymize-ended', site.id, now);
    for (const user of users) expect((await getStoredUser(site.id, user.id))!.anonymizedAt).toBe(now.toISOString());
    await expectTalliesMatchBallots(site.id);
  });

  it('is bounded per run, continues on the next, with the same requests per user', async () => {
    const { site } = await endedSiteWithVoters(5, '1968-01-01T00:00:00.000Z');
    const now = new Date('1968-02-01T00:00:00Z');
    const one = await countRequests(() => runOn('anonymize-ended', site.id, now, { units: 1 }));
    expect(one.result.sites[0]!.done).toHaveLength(1);
    expect(one.result.more).toBe(true);
    const three = await countRequests(() => runOn('anonymize-ended', site.id, now, { units: 3 }));
    expect(three.result.sites[0]!.done).toHaveLength(3);
    const perUser = (three.requests - one.requests) / 2;
    expect(Number.isInteger(perUser)).toBe(true);
    // Per user: the anonymization of do-anonymize (user, owned items, ballot, ballot+tallies, user+link).
    expect(perUser).toBeLessThanOrEqual(6);
    const last = await runOn('anonymize-ended', site.id, now);
    expect(last.sites[0]!.done).toHaveLength(1);
    expect(last.more).toBe(false);
    expect((await runOn('anonymize-ended', site.id, now)).sites[0]!.done).toEqual([]);
  });

  it('waits for the project to be marked ended', async () => {
    const site = await createLifecycleSite({ project: { endDate: '2100-01-01T00:00:00.000Z' }, anonymize: { anonymizeUsersXDaysAfterEndDate: 1 } });
    const user = await putUser(site.id);
    const report = await runOn('anonymize-ended', site.id, new Date('2100-02-01T00:00:00Z'));
    expect(report.sites[0]!.done).toEqual([]);
    expect((await getStoredUser(site.id, user.id))!.anonymizedAt).toBeUndefined();
    // end-projects ends it; then the users go.
    await runOn('end-projects', site.id, new Date('2100-02-01T00:00:00Z'));
    expect((await runOn('anonymize-ended', site.id, new Date('2100-02-01T00:00:00Z'))).sites[0]!.done).toEqual([`user ${user.id} anonymized (project ended)`]);
  });
});
