/**
 * The site's outbox (CONTRACT "Decided details, lifecycle"): what the service would have mailed,
 * for an external mailer to deliver. Record `{id, siteId, kind, to, subject, body, status, createdAt,
 * sentAt}`.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, pathId } from '#schemas/common';

const NOTIFICATION_KINDS = ['project-ended', 'inactivity-warning'] as const;

export const NOTIFICATION_STATUSES = ['pending', 'sent'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const listNotificationsQuery = z.object({
  status: z.optional(z.enum(NOTIFICATION_STATUSES, { error: 'must be pending or sent' })),
  ...pageQuery,
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const notificationParams = z.object({ siteId: pathId, notificationId: pathId });

export const notificationRecord = z.object({
  id: z.int(),
  siteId: z.int(),
  kind: z.enum(NOTIFICATION_KINDS),
  to: z.nullable(z.string()),
  subject: z.string(),
  body: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  createdAt: z.string(),
  sentAt: z.nullable(z.string()),
});
export type NotificationRecord = z.infer<typeof notificationRecord>;
