/**
 * Brute-force limits (lib/request/rate-limit.ts) with the counter store as a double: which address a
 * request counts for (IPv6 by /64), who is exempt, and the 429 with `Retry-After` to the window's end.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const counted = vi.hoisted(() => ({ calls: [] as unknown[][], counts: new Map<string, number>() }));
vi.mock('#lib/store/login/rate-counters', () => ({
  countRequestInWindow: vi.fn(async (...args: unknown[]) => {
    counted.calls.push(args);
    const key = args.slice(0, 4).join('|');
    const n = (counted.counts.get(key) ?? 0) + 1;
    counted.counts.set(key, n);
    return n;
  }),
}));

const { BRUTE_FORCE_LIMIT, counterAddress, enforceRateLimit, isExempt } = await import('#lib/request/rate-limit');

beforeEach(() => {
  counted.calls = [];
  counted.counts.clear();
});

describe('counterAddress', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:DB8:0:1:aaaa:bbbb:cccc:dddd', '2001:db8:0:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0001:0002::', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:198.51.100.17', '198.51.100.17'],
    // An IPv4 tail inside another prefix is not IPv4-mapped: the /64 of its prefix.
    ['2001:db8::ffff:192.0.2.1', '2001:db8:0:0::/64'],
    // The zeros `::` stands for are as many as the groups after it leave.
    ['2001::3:4:5:6:7', '2001:0:0:3::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
  ])('%s counts as %s', (ip, expected) => {
    expect(counterAddress(ip)).toBe(expected);
  });
});

describe('isExempt', () => {
  it('exact addresses and CIDR ranges of both families; unreadable entries and addresses count for nothing', () => {
    const list = ['198.51.100.7', '10.0.0.0/8', '2001:db8::/32', 'garbage', '10.1.0.0/99', ' 192.0.2.1 '];
    expect(isExempt('198.51.100.7', list)).toBe(true);
    expect(isExempt('10.200.3.4', list)).toBe(true);
    expect(isExempt('2001:db8:1::5', list)).toBe(true);
    expect(isExempt('192.0.2.1', list)).toBe(true);
    expect(isExempt('198.51.100.8', list)).toBe(false);
    expect(isExempt('2001:db9::1', list)).toBe(false);
    expect(isExempt('not-an-ip', list)).toBe(false);
    expect(isExempt('198.51.100.7', [])).toBe(false);
    expect(isExempt('198.51.100.7', undefined)).toBe(false);
    expect(isExempt('10.0.0.1', ['10.0.0.0/x'])).toBe(false);
  });

  it('takes a prefix length up to the whole address of its family, and skips a longer one', () => {
    expect(isExempt('198.51.100.9', ['198.51.100.9/32'])).toBe(true);
    expect(isExempt('2001:db8::9', ['2001:db8::9/128'])).toBe(true);
    expect(isExempt('2001:db8:1:2::5', ['2001:db8:1:2::/64'])).toBe(true);
    expect(isExempt('2001:db8:1:3::5', ['2001:db8:1:2::/64'])).toBe(false);
    expect(isExempt('10.0.0.1', ['10.0.0.0/33', '2001:db8::/129'])).toBe(false);
  });
});

describe('enforceRateLimit', () => {
  const base = { group: 'login' as const, siteId: 4, ignoreBruteForce: undefined, sourceIp: '203.0.113.9' };

  it('counts per site, address and door in a one-minute window kept for two; the 101st is a 429 until the window ends', async () => {
    const nowMs = 1_700_000_045_500; // 5.5 s into the window that starts at 1700000040 s
    for (let i = 0; i < BRUTE_FORCE_LIMIT; i++) await enforceRateLimit({ ...base, nowMs });
    const start = Math.floor(nowMs / 1000) - (Math.floor(nowMs / 1000) % 60);
    expect(counted.calls[0]).toEqual([4, '203.0.113.9', 'login', start, start + 120]);
    await expect(enforceRateLimit({ ...base, nowMs })).rejects.toMatchObject({ status: 429, headers: { 'retry-after': String(start + 60 - Math.floor(nowMs / 1000)) } });
    // Another door, another site, another address: their own counters.
    await expect(enforceRateLimit({ ...base, group: 'newsletter-signup', nowMs })).resolves.toBeUndefined();
    await expect(enforceRateLimit({ ...base, siteId: 5, nowMs })).resolves.toBeUndefined();
    await expect(enforceRateLimit({ ...base, sourceIp: '203.0.113.10', nowMs })).resolves.toBeUndefined();
  });

  it('Retry-After is at least one second, even at the very end of a window', async () => {
    const nowMs = 1_700_000_099_999; // 59.999 s into its window (1700000040 is a multiple of 60)
    for (let i = 0; i < BRUTE_FORCE_LIMIT; i++) await enforceRateLimit({ ...base, nowMs });
    await expect(enforceRateLimit({ ...base, nowMs })).rejects.toMatchObject({ headers: { 'retry-after': '1' } });
  });

  it('an exempt address or no usable address costs no request', async () => {
    await enforceRateLimit({ ...base, ignoreBruteForce: ['203.0.113.0/24'], nowMs: 1 });
    await enforceRateLimit({ ...base, sourceIp: undefined, nowMs: 1 });
    await enforceRateLimit({ ...base, sourceIp: 'unknown', nowMs: 1 });
    expect(counted.calls).toEqual([]);
  });
});
