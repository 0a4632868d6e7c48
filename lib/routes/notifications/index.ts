/** Routes: The outbox of a site (lifecycle): what the service would mail, for an external mailer. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { notificationList } from '#lib/routes/notifications/list';
import { notificationSent } from '#lib/routes/notifications/sent';

export const notificationsRoutes: Route[] = [notificationList, notificationSent];
