/**
 * A write refreshes its user's `lastActivityAt` at most once a day (lib/request/activity-touch.ts), with
 * the user store as a double: who counts (a user of the site written to, with a stamp already), when
 * (the first write of a later day), and that a failed stamp never fails the write.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const touched = vi.hoisted(() => ({ calls: [] as unknown[][], fail: false }));
vi.mock('#lib/store/users/users', () => ({
  touchUserActivity: vi.fn(async (...args: unknown[]) => {
    touched.calls.push(args);
    if (touched.fail) throw new Error('throttled');
    return true;
  }),
}));

const { recordWriteActivity } = await import('#lib/request/activity-touch');
const { logger } = await import('#lib/log/logger');
type Caller = Parameters<typeof recordWriteActivity>[0];

const now = new Date('2024-06-15T09:30:00.000Z');
const userOf = (lastActivityAt: unknown): Caller => ({ kind: 'user', role: 'member', userId: 7, siteId: 3, user: { lastActivityAt } as never });

beforeEach(() => {
  touched.calls = [];
  touched.fail = false;
  vi.restoreAllMocks();
});

describe('recordWriteActivity', () => {
  it('stamps a user of the site written to whose last activity was on an earlier day, with the stamp it read as the condition', async () => {
    await recordWriteActivity(userOf('2024-06-14T23:59:59.999Z'), 3, now);
    expect(touched.calls).toEqual([[3, 7, '2024-06-15T09:30:00.000Z', '2024-06-14T23:59:59.999Z']]);
  });

  it('writes nothing for a user already stamped today, nor one stamped later (a clock behind)', async () => {
    await recordWriteActivity(userOf('2024-06-15T00:00:00.000Z'), 3, now);
    await recordWriteActivity(userOf('2024-06-15T23:00:00.000Z'), 3, now);
    await recordWriteActivity(userOf('2024-06-16T01:00:00.000Z'), 3, now);
    expect(touched.calls).toEqual([]);
  });

  it('writes nothing for a user without a stamp (the next login sets it), a token of another site, a service or nobody', async () => {
    await recordWriteActivity(userOf(undefined), 3, now);
    await recordWriteActivity(userOf(null), 3, now);
    await recordWriteActivity(userOf('2024-06-01T00:00:00.000Z'), 4, now);
    await recordWriteActivity(userOf('2024-06-01T00:00:00.000Z'), undefined, now);
    await recordWriteActivity({ kind: 'service', role: 'admin', userId: undefined }, 3, now);
    await recordWriteActivity({ kind: 'none', role: undefined, userId: undefined }, 3, now);
    // A write outside any site (no site id) by a service or nobody: neither has a site to match.
    await recordWriteActivity({ kind: 'service', role: 'admin', userId: undefined }, undefined, now);
    await recordWriteActivity({ kind: 'none', role: undefined, userId: undefined }, undefined, now);
    expect(touched.calls).toEqual([]);
  });

  it('a stamp that fails is logged as a warning; the write it follows still succeeds', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    touched.fail = true;
    await expect(recordWriteActivity(userOf('2024-06-01T00:00:00.000Z'), 3, now)).resolves.toBeUndefined();
    expect(touched.calls).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith('could not record user activity', { siteId: 3, userId: 7, error: 'throttled' });
  });

  it('stamps with the current time when none is given', async () => {
    const before = Date.now();
    await recordWriteActivity(userOf('2000-01-01T00:00:00.000Z'), 3);
    const at = Date.parse(touched.calls[0]![2] as string);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
