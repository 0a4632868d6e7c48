/**
 * What every key of the single table is made of (DESIGN habit 7). Each entity's key builders live in
 * its own folder (lib/store/<entity>/keys.ts), each prefix written there and nowhere else. Everything
 * of a site lives under `PK = SITE#<siteId>`, so one Query reads a site's ideas, ballots or users, and
 * deleting a site is one partition sweep. docs/data-model.md keeps the access-pattern table that goes
 * with these keys.
 *
 * Ids are zero-padded to 10 digits so that the lexical sort order of SK is the numeric order of ids
 * (and ids grow with time, so it is also creation order). The padding keeps every key already written:
 * ids of the retired counters are below 10^9 (padded, they start with a 0) and ids made from time
 * (lib/store/db/ids.ts) have 16 digits (user ids: 12) and start with a 1-9, so both sort as numbers,
 * among themselves and against each other. No id from 10^9 to 10^15 is handed out but user ids, from
 * 10^11 to 10^11 + 3 * 2^36 (all 12 digits).
 */

export interface Key {
  PK: string;
  SK: string;
}

const ID_WIDTH = 10;
export const pad = (id: number): string => String(id).padStart(ID_WIDTH, '0');
/** The largest id a key can hold: the upper end of a key range over ids. */
export const MAX_KEY_ID = Number.MAX_SAFE_INTEGER;
/** Inverse of the numeric tail of a key such as `IDEA#0000000012`. */
export const idFromSk = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));

export const sitePk = (siteId: number) => `SITE#${siteId}`;
