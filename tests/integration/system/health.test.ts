import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { handler } from '../../../functions/system/health.ts';
import type { HealthBody } from '#tests/support/bodies';

describe('GET /api/health', () => {
  it('answers ok with one read when the table is reachable, and is never cached', async () => {
    const { result, commands } = await countRequests(() => invoke<HealthBody>(handler, { method: 'GET', path: '/api/health' }));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ status: 'ok' });
    expect(result.headers['cache-control']).toBe('no-store');
    expect(commands).toEqual({ GetItemCommand: 1 });
  });
});
