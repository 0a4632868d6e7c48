/** The attack suites' rule for whatever a client sends: an answer below 500, with the body in the failure message. */
import { expect } from 'vitest';
import type { InvokeResult } from './invoke.ts';

export const no5xx = (res: InvokeResult<unknown>, label: string) => expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
