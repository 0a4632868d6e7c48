/**
 * Brute-force limits on the unauthenticated doors (CONTRACT "Decided details, security"): login start,
 * digest-login, newsletter signup and newsletter confirm opt in through `rateLimit` in their route
 * spec (lib/request/setup.ts), each with a counter of its own; no other route pays a request for it.
 *
 * Per site and client address (API Gateway's `requestContext.http.sourceIp`, which the client cannot
 * set; IPv6 counted per /64, since one client holds a whole /64), at most BRUTE_FORCE_LIMIT requests
 * per fixed one-minute window, counted in DynamoDB (lib/store/login/rate-counters.ts) so every Lambda
 * instance sees the same count. Over the limit: 429 with `Retry-After` = seconds to the window's end.
 * The window's clock is API Gateway's `requestContext.timeEpoch` (so tests inject it in the event).
 * Addresses (or CIDR ranges) in the site's `ignoreBruteForce` are exempt and cost no request.
 */
import { BlockList, isIP } from 'node:net';
import { tooManyRequests } from '#lib/errors';
import { countRequestInWindow } from '#lib/store/login/rate-counters';

/**
 * One counter per door: a flood of newsletter signups from a town hall's shared address must not lock
 * that address out of logging in, and a login (start + digest) costs one count at each of its doors.
 */
export type RateLimitGroup = 'login' | 'digest-login' | 'newsletter-signup' | 'newsletter-confirm';

export const BRUTE_FORCE_LIMIT = 100;
const WINDOW_SECONDS = 60;

/** The address a counter is kept for: IPv4 as is, IPv6 by its /64 (an IPv4-mapped one as IPv4). */
export function counterAddress(sourceIp: string): string {
  const ip = sourceIp.trim().toLowerCase();
  if (isIP(ip) !== 6) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return mapped[1]!;
  const [head, tail = ''] = ip.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Whether `ignoreBruteForce` lists the address: exact addresses and CIDR ranges; unreadable entries are skipped. */
export function isExempt(sourceIp: string, ignoreBruteForce: readonly string[] | undefined): boolean {
  if (!ignoreBruteForce?.length) return false;
  const family = isIP(sourceIp);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of ignoreBruteForce) {
    const [net = '', bits] = entry.trim().split('/');
    const type = isIP(net) === 4 ? 'ipv4' : isIP(net) === 6 ? 'ipv6' : undefined;
    if (!type) continue;
    if (bits === undefined) list.addAddress(net, type);
    else if (/^\d{1,3}$/.test(bits) && Number(bits) <= (type === 'ipv4' ? 32 : 128)) list.addSubnet(net, Number(bits), type);
  }
  return list.check(sourceIp, family === 4 ? 'ipv4' : 'ipv6');
}

interface RateLimitInput {
  group: RateLimitGroup;
  siteId: number;
  ignoreBruteForce: readonly string[] | undefined;
  sourceIp: string | undefined;
  /** Epoch milliseconds of the request (API Gateway's `timeEpoch`). */
  nowMs: number;
}

/** Counts the request and throws 429 once the address is over the limit in this window. */
export async function enforceRateLimit({ group, siteId, ignoreBruteForce, sourceIp, nowMs }: RateLimitInput): Promise<void> {
  // API Gateway always sets sourceIp; without one there is nobody to count.
  if (!sourceIp || isIP(sourceIp) === 0) return;
  if (isExempt(sourceIp, ignoreBruteForce)) return;
  const now = Math.floor(nowMs / 1000);
  const windowStart = now - (now % WINDOW_SECONDS);
  const windowEnd = windowStart + WINDOW_SECONDS;
  const count = await countRequestInWindow(siteId, counterAddress(sourceIp), group, windowStart, windowEnd + WINDOW_SECONDS);
  if (count > BRUTE_FORCE_LIMIT) throw tooManyRequests(Math.max(1, windowEnd - now));
}
