/**
 * anonymize-inactive, driven by an injected clock: warned once after `warnUsersAfterXDaysOfInactivity`
 * days without activity (a notification in the outbox), anonymized after
 * `anonymizeUsersAfterXDaysOfInactivity` days once the warning is old enough; activity clears the
 * warning. Runs are limited to the test's site (this recurring job's markers fall due at real time).
 */
import { describe, expect, it } from 'vitest';
import { updateUser } from '#lib/store/users/users';
import { countRequests } from '#tests/support/request-counter';
import { createLifecycleSite, daysFrom, getStoredUser, notificationsOf, putUser, runOn, siteData } from './helpers.ts';

const T0 = '2030-01-01T00:00:00.000Z';
const config = {
  anonymize: {
    warnUsersAfterXDaysOfInactivity: 10,
    anonymizeUsersAfterXDaysOfInactivity: 15,
    inactiveWarningEmail: { subject: 'Hello {{displayName}}', template: 'Dear {{ DISPLAYNAME }}, {{siteName}} misses you. {{email}}{{user.email}}' },
  },
};

describe('anonymize-inactive', () => {
  it('warns inactive users once, then anonymizes them after the later threshold; a rerun changes nothing', async () => {
    const site = await createLifecycleSite(config);
    const ann = await putUser(site.id, { lastActivityAt: T0, firstName: 'Ann' });
    const noMail = await putUser(site.id, { lastActivityAt: T0, email: null });
    const recent = await putUser(site.id, { lastActivityAt: daysFrom(T0, 8).toISOString() });

    expect((await runOn('anonymize-inactive', site.id, daysFrom(T0, 9))).sites[0]!.done).toEqual([]);

    const warnAt = daysFrom(T0, 11);
    const report = await runOn('anonymize-inactive', site.id, warnAt);
    expect(report.sites[0]!.done).toEqual([expect.stringMatching(`^user ${ann.id} warned \\(notification \\d+\\)`), `user ${noMail.id} warned (no e-mail address)`]);
    // Due again at the earlier of: the warned users' anonymization (day 16), `recent`'s warning (day 18).
    expect(report.sites[0]!.nextDueAt).toBe(daysFrom(T0, 16).toISOString());
    const notices = await notificationsOf(site.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'inactivity-warning',
      to: ann.email,
      subject: `Hello Ann ${ann.lastName}`,
      // Display name and site name only: every other placeholder is dropped.
      body: `Dear Ann ${ann.lastName}, Lifecycle site misses you. `,
      status: 'pending',
      createdAt: warnAt.toISOString(),
    });
    expect((await getStoredUser(site.id, ann.id))!.warnedAt).toBe(warnAt.toISOString());

    const before = await siteData(site.id);
    await runOn('anonymize-inactive', site.id, warnAt);
    await runOn('anonymize-inactive', site.id, daysFrom(T0, 15)); // inactive 15 days, but warned only 4 days ago
    expect(await siteData(site.id)).toEqual(before);

    const anonymizeAt = daysFrom(T0, 16);
    const done = await runOn('anonymize-inactive', site.id, anonymizeAt);
    expect(done.sites[0]!.done).toEqual([
      expect.stringMatching(`^user ${ann.id} anonymized`),
      expect.stringMatching(`^user ${noMail.id} anonymized`),
    ]);
    const anonymized = await getStoredUser(site.id, ann.id);
    expect(anonymized).toMatchObject({ firstName: 'Gebruiker', email: null, anonymizedAt: anonymizeAt.toISOString() });
    expect(anonymized!.GSI2PK).toBeUndefined();
    expect((await getStoredUser(site.id, recent.id))!.anonymizedAt).toBeUndefined();

    const after = await siteData(site.id);
    await runOn('anonymize-inactive', site.id, anonymizeAt);
    expect(await siteData(site.id)).toEqual(after);
  });

  it('activity clears the warning: a user who comes back is not anonymized', async () => {
    const site = await createLifecycleSite(config);
    const bob = await putUser(site.id, { lastActivityAt: T0 });
    await runOn('anonymize-inactive', site.id, daysFrom(T0, 11));
    expect((await getStoredUser(site.id, bob.id))!.warnedAt).toBeDefined();
    // A login (lib/users/login.ts) writes lastActivityAt with its update.
    const back = daysFrom(T0, 12).toISOString();
    await updateUser(site.id, bob.id, { lastActivityAt: back, updatedAt: back });
    const user = await getStoredUser(site.id, bob.id);
    expect(user!.warnedAt).toBeUndefined();

    expect((await runOn('anonymize-inactive', site.id, daysFrom(T0, 16))).sites[0]!.done).toEqual([]);
    // Ten days after coming back, warned again: a new warning.
    expect((await runOn('anonymize-inactive', site.id, daysFrom(T0, 22))).sites[0]!.done).toEqual([expect.stringMatching(`^user ${bob.id} warned`)]);
    expect(await notificationsOf(site.id)).toHaveLength(2);
  });

  it('two overlapping runs warn each user once', async () => {
    const site = await createLifecycleSite(config);
    const users = await Promise.all([1, 2, 3].map(() => putUser(site.id, { lastActivityAt: T0 })));
    const now = daysFrom(T0, 11);
    await Promise.all([runOn('anonymize-inactive', site.id, now), runOn('anonymize-inactive', site.id, now)]);
    const notices = await notificationsOf(site.id);
    expect(notices.map((n) => n.to).sort()).toEqual(users.map((u) => u.email).sort());
  });

  it('is bounded per run, continues on the next, and its requests are constant per user warned', async () => {
    const site = await createLifecycleSite(config);
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => putUser(site.id, { lastActivityAt: T0 })));
    const now = daysFrom(T0, 11);
    const first = await countRequests(() => runOn('anonymize-inactive', site.id, now, { units: 2 }));
    expect(first.result.sites[0]!.done).toHaveLength(2);
    expect(first.result.more).toBe(true);
    // --site: GetItem site, TransactWriteItems (markers), GetItem marker; then GetItem site, 2 Queries
    // (warned, not warned), per user warned: one TransactWriteItems (the notification's id is made, not fetched); UpdateItem marker.
    expect(first.commands).toEqual({ GetItemCommand: 3, TransactWriteItemsCommand: 1 + 2, QueryCommand: 2, UpdateItemCommand: 1 });

    const second = await countRequests(() => runOn('anonymize-inactive', site.id, now, { units: 3 }));
    expect(second.result.sites[0]!.done).toHaveLength(3);
    expect(second.commands).toEqual({ GetItemCommand: 3, TransactWriteItemsCommand: 1 + 3, QueryCommand: 2, UpdateItemCommand: 1 });
    expect(await notificationsOf(site.id)).toHaveLength(users.length);

    // Anonymizing: the same number of requests for each user.
    const later = daysFrom(T0, 16);
    const one = await countRequests(() => runOn('anonymize-inactive', site.id, later, { units: 1 }));
    const three = await countRequests(() => runOn('anonymize-inactive', site.id, later, { units: 3 }));
    expect(one.result.sites[0]!.done).toHaveLength(1);
    expect(three.result.sites[0]!.done).toHaveLength(3);
    const perUser = (three.requests - one.requests) / 2;
    expect(one.requests - perUser).toBe(three.requests - 3 * perUser);
    expect(perUser).toBeLessThanOrEqual(4);
  });
});
