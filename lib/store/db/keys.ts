/**
 * What every key of the single table is made of (DESIGN habit 7). Each entity's key builders live in
 * its own folder (lib/store/<entity>/keys.ts), each prefix written there and nowhere else. Everything
 * of a site lives under `PK = SITE#<siteId>`, so one Query reads a site's ideas, ballots or users, and
 * deleting a site is one partition sweep. docs/data-model.md keeps the access-pattern table that goes
 * with these keys.
 *
 * Ids are zero-padded so that the lexical sort order of SK is the numeric order of ids (and ids grow
 * with time, so it is also creation order).
 */

export interface Key {
  PK: string;
  SK: string;
}

const ID_WIDTH = 10;
export const pad = (id: number): string => String(id).padStart(ID_WIDTH, '0');
/** Inverse of the numeric tail of a key such as `IDEA#0000000012`. */
export const idFromSk = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));

export const sitePk = (siteId: number) => `SITE#${siteId}`;
