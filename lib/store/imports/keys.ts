/** Keys of the ids an import from another system may keep. */
import { type Key } from '#lib/store/db/keys';

export const importKeys = {
  /** The ids an import from another system may keep (lib/store/imports/reservations.ts). */
  importReservation: (source: string): Key => ({ PK: `IMPORT#${source}`, SK: 'RESERVATION' }),
} as const;
