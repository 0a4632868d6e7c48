import { describe, expect, it, vi } from 'vitest';

const reachable = vi.hoisted(() => ({ value: true }));
vi.mock('#lib/store/db/health', () => ({ tableReachable: async () => reachable.value }));

const { health } = await import('#lib/system/health');

describe('health', () => {
  it('is ok while the table answers', async () => {
    reachable.value = true;
    await expect(health()).resolves.toEqual({ status: 'ok' });
  });

  it('is a 503 ServiceUnavailable when it does not', async () => {
    reachable.value = false;
    await expect(health()).rejects.toMatchObject({ status: 503, error: 'ServiceUnavailable' });
  });
});
