/** Keys of ballots (one per user per site) and of the stored answers of vote rounds. */
import { type Key, MAX_KEY_ID, pad, sitePk } from '#lib/store/db/keys';

export const ballotKeys = {
  /** One ballot per user per site: the user's whole current vote set (see docs/data-model.md). */
  ballot: (siteId: number, userId: number): Key => ({ PK: sitePk(siteId), SK: `BALLOT#${pad(userId)}` }),
  ballotPrefix: 'BALLOT#',
  /**
   * Whether an item of the ballot range is stored under its user's ballot key. Anything else in the
   * range (a copy under another key, a key with a tail) is no ballot: a writer put it there.
   */
  isBallotOf: (siteId: number, userId: unknown, sk: string): boolean => typeof userId === 'number' && sk === ballotKeys.ballot(siteId, userId).SK,
  /**
   * Where a Query of the ballot range goes on after reading the item under `sk`: from the ballot of
   * the next user when `sk` is a user's ballot key or that key with a `#` tail (both sort after that
   * ballot and before the next user's, as ids of one width do: lib/store/db/keys.ts), else right after
   * `sk` itself. A key a writer chose thus never moves the next page anywhere but past itself.
   */
  resumeAfter: (sk: string): { fromUserId: number } | { afterSk: string } => {
    const segment = sk.startsWith(ballotKeys.ballotPrefix) ? sk.slice(ballotKeys.ballotPrefix.length).split('#')[0]! : '';
    const userId = /^[0-9]+$/.test(segment) ? Number(segment) : Number.NaN;
    return Number.isSafeInteger(userId) && userId < MAX_KEY_ID && pad(userId) === segment ? { fromUserId: userId + 1 } : { afterSk: sk };
  },
  /**
   * True when `sk` lies in the site's ballot range, where a Query of that range may start after it
   * (DynamoDB refuses a start key outside the range: a 500). The bounds are ASCII, so comparing strings
   * here orders as DynamoDB's bytes do.
   */
  inRange: (siteId: number, sk: string): boolean => sk >= ballotKeys.ballot(siteId, 0).SK && sk <= ballotKeys.ballot(siteId, MAX_KEY_ID).SK,
  /** A stored response for an `Idempotency-Key` (expires through the table's TTL attribute `ttl`). */
  idempotency: (siteId: number, scope: string, key: string): Key => ({
    PK: sitePk(siteId),
    SK: `IDEMP#${scope}#${key}`,
  }),
} as const;
