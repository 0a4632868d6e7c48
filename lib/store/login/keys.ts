/** Keys of consumed login states and of the brute-force counters. */
import { type Key, sitePk } from '#lib/store/db/keys';

export const loginKeys = {
  /** A consumed login `state` (by the hash of its browser nonce); expires through TTL with the state. */
  usedLoginState: (siteId: number, nonceHash: string): Key => ({ PK: sitePk(siteId), SK: `USEDSTATE#${nonceHash}` }),
  /**
   * A fixed one-minute request counter per client address, site and route group. Its own partition
   * per (site, address), so a flood from many addresses never heats the site's partition.
   */
  rateCounter: (siteId: number, address: string, group: string, windowStartEpoch: number): Key => ({
    PK: `RATE#${siteId}#${address}`,
    SK: `${group}#${windowStartEpoch}`,
  }),
} as const;
