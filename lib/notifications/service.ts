/**
 * The outbox endpoints: an external mailer (service token) or the site's admin lists what is to be
 * sent and marks each one sent once delivered.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { notFound } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import * as store from '#lib/store/notifications/notifications';
import type { ListNotificationsQuery, NotificationRecord } from '#schemas/notification';

const toRecord = (item: store.NotificationItem): NotificationRecord => ({
  id: item.id,
  siteId: item.siteId,
  kind: item.kind,
  to: item.to ?? null,
  subject: item.subject,
  body: item.body,
  status: item.status,
  createdAt: item.createdAt,
  sentAt: item.sentAt ?? null,
});

export async function listNotifications(caller: Caller, site: Site, query: ListNotificationsQuery) {
  access.site.manage(caller, site.id);
  const page = await store.listNotifications(site.id, { status: query.status }, query);
  return { records: page.items.map(toRecord), nextCursor: page.nextCursor };
}

/** Idempotent: marking a notification sent twice answers it as it was first marked. */
export async function markSent(caller: Caller, site: Site, notificationId: number, now: Date = new Date()): Promise<NotificationRecord> {
  access.site.manage(caller, site.id);
  const item = await store.markNotificationSent(site.id, notificationId, now.toISOString());
  if (!item) throw notFound(`Notification ${notificationId} not found on site ${site.id}`);
  return toRecord(item);
}
