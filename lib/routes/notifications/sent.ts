import type { Route } from '#lib/routes/route';
import { notificationParams } from '#schemas/notification';

export const notificationSent = {
  operationId: 'notificationSent',
  method: 'POST',
  path: '/api/site/{siteId}/notification/{notificationId}/sent',
  handler: 'functions/notifications/sent',
  dataAccess: 'write',
  params: notificationParams,
  tag: 'Notifications',
  summary: 'Mark a notification sent',
  description: 'Needs no body. Marking it again answers it as first marked.',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'Notification' },
  errors: [403],
} satisfies Route;
