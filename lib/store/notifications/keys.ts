/** Keys of the site's outbox: notifications the service would have mailed (docs/lifecycle.md). */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const notificationKeys = {
  /** The site's outbox: notifications the service would have mailed (docs/lifecycle.md). */
  notification: (siteId: number, notificationId: number): Key => ({
    PK: sitePk(siteId),
    SK: `NOTIFICATION#${pad(notificationId)}`,
  }),
  notificationPrefix: 'NOTIFICATION#',
} as const;
