/** The codecs of the notifications folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { notificationKeys } from '#lib/store/notifications/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedNotification } from '#schemas/stored/notification';
import type { NotificationRecord } from '#schemas/notification';

export const notificationCodec = defineCodec<NotificationRecord>({
  kind: 'notification',
  schema: storedNotification,
  keys: (item) => notificationKeys.notification(item.siteId, item.id),
});
