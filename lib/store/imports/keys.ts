/** Keys of what an import from another system keeps: its ids, and what it knows it copied. */
import { type Key, pad } from '#lib/store/db/keys';

export const importKeys = {
  /** The ids an import from another system may keep (lib/store/imports/reservations.ts). */
  importReservation: (source: string): Key => ({ PK: `IMPORT#${source}`, SK: 'RESERVATION' }),
  /**
   * An import of `source` went through every user of the site once (lib/store/imports/copied.ts):
   * from then on a user of it that is not here was deleted here (or never could be copied).
   */
  usersCopied: (source: string, siteId: number): Key => ({ PK: `IMPORT#${source}`, SK: `USERS#${pad(siteId)}` }),
} as const;
