/**
 * Small items that count or expire: brute-force counters (`RATE#...`) and used login states
 * (`USEDSTATE#...`). Counters are read from what their ADD returns.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { storedInt } from '#schemas/stored/read';

export const storedRateCounter = z.object({ count: storedInt, ttl: z.optional(storedInt) });
/** Only its key matters (a state works once); `ttl` removes it when the state has expired. */
export const storedLoginState = z.object({ ttl: storedInt });
