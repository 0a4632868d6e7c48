/** Outbox notifications (`NOTIFICATION#<n>`), stored as their record: lib/store/notifications/notifications.ts. */
import { notificationRecord } from '#schemas/notification';
import { keepingUnnamed } from '#schemas/stored/read';

export const storedNotification = keepingUnnamed(notificationRecord);
