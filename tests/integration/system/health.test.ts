import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { handler } from '../../../functions/system/health.ts';
import type { HealthBody } from '#tests/support/bodies';
import { issueToken } from '#lib/auth/jwt';

describe('GET /api/health', () => {
  it('answers ok with one read when the table is reachable, and is never cached', async () => {
    const { result, commands } = await countRequests(() => invoke<HealthBody>(handler, { method: 'GET', path: '/api/health' }));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ status: 'ok' });
    expect(result.headers['cache-control']).toBe('no-store');
    expect(commands).toEqual({ GetItemCommand: 1 });
  });

  it('reads no token: a probe that forwards a stale, forged or malformed X-Authorization still sees the service up', async () => {
    const expired = await issueToken({ userId: 1, siteId: 1 }, { ttlSeconds: -3600 });
    for (const value of [`Bearer ${expired}`, 'Bearer not.a.token', 'Basic abc', 'garbage']) {
      const result = await invoke<HealthBody>(handler, { method: 'GET', path: '/api/health', headers: { 'x-authorization': value } });
      expect(result.status, value).toBe(200);
      expect(result.body).toEqual({ status: 'ok' });
    }
  });
});
