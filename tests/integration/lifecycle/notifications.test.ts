/**
 * The outbox endpoints: `GET /api/site/:id/notification` (admin, service token; list envelope;
 * `?status=pending|sent`) and `POST .../notification/:id/sent`.
 */
import { describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { handler as list } from '../../../functions/notifications/list.ts';
import { handler as sent } from '../../../functions/notifications/sent.ts';
import { createLifecycleSite, putUser, runOn } from './helpers.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { NotificationRecord } from '#schemas/notification';

/** A site whose project ended (end-projects ran): one pending notice for the project manager. */
async function endedSite() {
  const site = await createLifecycleSite({ project: { endDate: '2101-01-01T00:00:00.000Z' }, notifications: { projectmanagerAddress: 'pm@city.example.org' } });
  await runOn('end-projects', site.id, new Date('2101-01-02T00:00:00Z'));
  const admin = await putUser(site.id, { role: 'admin' });
  return { site, admin };
}

describe('GET /api/site/:id/notification', () => {
  it('lists the outbox for the admin and service tokens, filtered by status', async () => {
    const { site, admin } = await endedSite();
    for (const token of [admin.token, SERVICE_TOKEN]) {
      const res = await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        records: [
          {
            id: expect.any(Number),
            siteId: site.id,
            kind: 'project-ended',
            to: 'pm@city.example.org',
            subject: expect.any(String),
            body: expect.any(String),
            status: 'pending',
            createdAt: '2101-01-02T00:00:00.000Z',
            sentAt: null,
          },
        ],
        metadata: { pageSize: 100, nextCursor: null },
      });
    }
    expect((await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, query: { status: 'pending' }, token: admin.token })).body.records).toHaveLength(1);
    expect((await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, query: { status: 'sent' }, token: admin.token })).body.records).toEqual([]);
    expect((await invoke(list, { params: { siteId: site.id }, query: { status: 'late' }, token: admin.token })).status).toBe(400);
  });

  it('refuses everybody else', async () => {
    const { site } = await endedSite();
    const other = await createSite();
    const otherAdmin = await createUser(other.id, 'admin');
    expect((await invoke(list, { params: { siteId: site.id } })).status).toBe(401);
    for (const role of ['member', 'moderator', 'editor'] as const) {
      const user = await putUser(site.id, { role });
      const res = await invoke(list, { params: { siteId: site.id }, token: user.token });
      expect(res.status, role).toBe(403);
    }
    expect((await invoke(list, { params: { siteId: site.id }, token: otherAdmin.token })).status).toBe(401);
  });

  it('costs one Query per page', async () => {
    const { site, admin } = await endedSite();
    const { commands } = await countRequests(() => invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, token: admin.token }));
    // Site and caller in one BatchGet, then one Query.
    expect(commands).toEqual({ BatchGetItemCommand: 1, QueryCommand: 1 });
  });
});

describe('POST /api/site/:id/notification/:nid/sent', () => {
  it('marks a notification sent once; a second call answers it as first marked', async () => {
    const { site, admin } = await endedSite();
    const [pending] = (await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, token: admin.token })).body.records;
    const first = await invoke<NotificationRecord>(sent, { method: 'POST', params: { siteId: site.id, notificationId: pending!.id }, token: SERVICE_TOKEN });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: pending!.id, status: 'sent', sentAt: expect.any(String) });
    const again = await invoke<NotificationRecord>(sent, { method: 'POST', params: { siteId: site.id, notificationId: pending!.id }, token: admin.token });
    expect(again.status).toBe(200);
    expect(again.body.sentAt).toBe(first.body.sentAt);
    expect((await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, query: { status: 'sent' }, token: admin.token })).body.records).toHaveLength(1);
    expect((await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, query: { status: 'pending' }, token: admin.token })).body.records).toEqual([]);
  });

  it('is 404 for an unknown id or one of another site, 403 below admin, 401 without a token', async () => {
    const { site, admin } = await endedSite();
    const other = await endedSite();
    const [theirs] = (await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: other.site.id }, token: SERVICE_TOKEN })).body.records;
    expect((await invoke(sent, { method: 'POST', params: { siteId: site.id, notificationId: 999999999 }, token: admin.token })).status).toBe(404);
    expect((await invoke(sent, { method: 'POST', params: { siteId: site.id, notificationId: theirs!.id }, token: admin.token })).status).toBe(404);
    const moderator = await putUser(site.id, { role: 'moderator' });
    const [mine] = (await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, token: admin.token })).body.records;
    expect((await invoke(sent, { method: 'POST', params: { siteId: site.id, notificationId: mine!.id }, token: moderator.token })).status).toBe(403);
    expect((await invoke(sent, { method: 'POST', params: { siteId: site.id, notificationId: mine!.id } })).status).toBe(401);
    // Still pending: nothing was marked by the refused calls.
    expect((await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: site.id }, query: { status: 'pending' }, token: admin.token })).body.records).toHaveLength(1);
    expect((await invoke<ListEnvelope<NotificationRecord>>(list, { params: { siteId: other.site.id }, query: { status: 'pending' }, token: SERVICE_TOKEN })).body.records).toHaveLength(1);
  });
});
