/** Keys of ballots (one per user per site) and of the stored answers of vote rounds. */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const ballotKeys = {
  /** One ballot per user per site: the user's whole current vote set (see docs/data-model.md). */
  ballot: (siteId: number, userId: number): Key => ({ PK: sitePk(siteId), SK: `BALLOT#${pad(userId)}` }),
  ballotPrefix: 'BALLOT#',
  /**
   * Whether an item of the ballot range is stored under its user's ballot key. Anything else in the
   * range (a copy under another key, a key with a tail) is no ballot: a writer put it there.
   */
  isBallotOf: (siteId: number, userId: unknown, sk: string): boolean => typeof userId === 'number' && sk === ballotKeys.ballot(siteId, userId).SK,
  /** A stored response for an `Idempotency-Key` (expires through the table's TTL attribute `ttl`). */
  idempotency: (siteId: number, scope: string, key: string): Key => ({
    PK: sitePk(siteId),
    SK: `IDEMP#${scope}#${key}`,
  }),
} as const;
