/**
 * end-projects, driven by an injected clock. Runs here go through the GSI2 index of due markers (the
 * production path); the dates are in 1971-1974 so that no other test's marker is due at those times.
 */
import { describe, expect, it } from 'vitest';
import { runJob } from '#lib/jobs/index';
import { countRequests } from '#tests/support/request-counter';
import { createLifecycleSite, getStoredSite, notificationsOf, siteData, updateSiteConfig } from './helpers.ts';

const at = (iso: string) => new Date(iso);

describe('end-projects', () => {
  it('ends the project once its end date has passed and writes the notice, once', async () => {
    const site = await createLifecycleSite({
      project: { endDate: '1971-03-01T00:00:00.000Z' },
      notifications: { projectmanagerAddress: 'pm@city.example.org' },
    });
    // Not before the end date.
    await runJob('end-projects', { now: at('1971-02-28T23:00:00Z') });
    expect((await getStoredSite(site.id))!.config.project!.projectHasEnded).toBeUndefined();
    expect(await notificationsOf(site.id)).toEqual([]);

    const report = await runJob('end-projects', { now: at('1971-03-01T01:00:00Z') });
    expect(report.sites.find((s) => s.siteId === site.id)?.done).toEqual([expect.stringMatching(/^project ended, notification \d+/)]);
    const stored = await getStoredSite(site.id);
    expect(stored!.config.project).toEqual({ endDate: '1971-03-01T00:00:00.000Z', projectHasEnded: true, endDateNotificationSent: true });
    const notices = await notificationsOf(site.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ siteId: site.id, kind: 'project-ended', to: 'pm@city.example.org', status: 'pending', createdAt: '1971-03-01T01:00:00.000Z', sentAt: null });
    expect(notices[0]!.subject).toContain('Lifecycle site');

    // A rerun, later or at the same time, changes nothing.
    const before = await siteData(site.id);
    await runJob('end-projects', { now: at('1971-03-01T01:00:00Z') });
    await runJob('end-projects', { now: at('1971-06-01T00:00:00Z') });
    expect(await siteData(site.id)).toEqual(before);
  });

  it('two overlapping runs end it once: one notification', async () => {
    const site = await createLifecycleSite({
      project: { endDate: '1972-01-01T00:00:00.000Z' },
      notifications: { projectmanagerAddress: 'pm@city.example.org' },
    });
    const now = at('1972-01-02T00:00:00Z');
    await Promise.all([runJob('end-projects', { now }), runJob('end-projects', { now }), runJob('end-projects', { now, siteId: site.id })]);
    expect(await notificationsOf(site.id)).toHaveLength(1);
    expect((await getStoredSite(site.id))!.config.project).toMatchObject({ projectHasEnded: true, endDateNotificationSent: true });
  });

  it('without a project manager address: ended, no notice; the notice follows once an address is set', async () => {
    const site = await createLifecycleSite({ project: { endDate: '1973-01-01T00:00:00.000Z' } });
    await runJob('end-projects', { now: at('1973-01-02T00:00:00Z') });
    expect((await getStoredSite(site.id))!.config.project).toEqual({ endDate: '1973-01-01T00:00:00.000Z', projectHasEnded: true });
    expect(await notificationsOf(site.id)).toEqual([]);

    const stored = await getStoredSite(site.id);
    await updateSiteConfig(site.id, { ...stored!.config, notifications: { projectmanagerAddress: 'late@city.example.org' } });
    await runJob('end-projects', { now: at('1973-01-03T00:00:00Z') });
    expect(await notificationsOf(site.id)).toEqual([expect.objectContaining({ to: 'late@city.example.org' })]);
    expect((await getStoredSite(site.id))!.config.project!.endDateNotificationSent).toBe(true);
  });

  it('is bounded per run and continues on the next; its requests are constant per due site', async () => {
    const sites = await Promise.all(
      [1, 2, 3].map(() => createLifecycleSite({ project: { endDate: '1974-01-01T00:00:00.000Z' }, notifications: { projectmanagerAddress: 'pm@x.example.org' } })),
    );
    const now = at('1974-01-02T00:00:00Z');
    const first = await countRequests(() => runJob('end-projects', { now, limits: { sites: 2 } }));
    expect(first.result.sites.map((s) => s.siteId)).toHaveLength(2);
    expect(first.result.more).toBe(true);
    // 1 Query for the due markers; per site: GetItem site, 1 TransactWriteItems (the notice's id is made, not fetched)
    expect(first.commands).toEqual({ QueryCommand: 1, GetItemCommand: 2, TransactWriteItemsCommand: 2 });

    const second = await countRequests(() => runJob('end-projects', { now, limits: { sites: 2 } }));
    expect(second.result.sites).toHaveLength(1);
    expect(second.commands).toEqual({ QueryCommand: 1, GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    for (const site of sites) expect(await notificationsOf(site.id)).toHaveLength(1);

    const third = await countRequests(() => runJob('end-projects', { now }));
    expect(third.result.sites).toHaveLength(0);
    expect(third.commands).toEqual({ QueryCommand: 1 });
  });

  it('does nothing on a site whose end date moved into the future (the admin extended the project)', async () => {
    const site = await createLifecycleSite({ project: { endDate: '1974-06-01T00:00:00.000Z' } });
    await updateSiteConfig(site.id, { project: { endDate: '2999-01-01T00:00:00.000Z' } });
    await runJob('end-projects', { now: at('1974-06-02T00:00:00Z') });
    expect((await getStoredSite(site.id))!.config.project!.projectHasEnded).toBeUndefined();
  });
});
