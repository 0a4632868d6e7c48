/**
 * Small items that count or expire: id counters (`COUNTER` / `<type>`), brute-force counters
 * (`RATE#...`) and used login states (`USEDSTATE#...`). Counters are read from what their ADD returns.
 */
import * as z from 'zod';
import { storedInt } from '#schemas/stored/read';

export const storedIdCounter = z.object({ value: storedInt });
export const storedRateCounter = z.object({ count: storedInt, ttl: storedInt.optional() });
/** Only its key matters (a state works once); `ttl` removes it when the state has expired. */
export const storedLoginState = z.object({ ttl: storedInt });
