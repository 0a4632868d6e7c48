/**
 * LOG_LEVEL is honoured. At ERROR, a request's info line is not written (the same
 * request at INFO writes it: tests/integration/system/logging.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'ERROR';
});

import { buildEvent } from '../../../scripts/lambda-call.ts';
import { createSite } from '#tests/support/fixtures';
import { handler as getSite } from '../../../functions/sites/get.ts';

describe('LOG_LEVEL=ERROR', () => {
  it('writes no info line for a request', async () => {
    const site = await createSite();
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const { event, context } = buildEvent({ params: { siteId: site.id }, path: `/api/site/${site.id}` });
    const res = await getSite(event, context);
    spy.mockRestore();
    expect((res as { statusCode: number }).statusCode).toBe(200);
    expect(written.join('')).not.toContain('"request"');
  });
});
