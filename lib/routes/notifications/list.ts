import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listNotificationsQuery } from '#schemas/notification';

export const notificationList = {
  operationId: 'notificationList',
  method: 'GET',
  path: '/api/site/{siteId}/notification',
  handler: 'functions/notifications/list',
  dataAccess: 'read',
  params: siteParams,
  query: listNotificationsQuery,
  tag: 'Notifications',
  summary: "List the site's outbox",
  description: 'Notifications the scheduled jobs wrote (project ended, inactivity warnings) for an external mailer; `status` filters.',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'NotificationList' },
  errors: [403],
} satisfies Route;
