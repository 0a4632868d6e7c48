/**
 * The pure rules of a login's userinfo answer (lib/auth-server/user-answer.ts `authServerUser`): reserved keys
 * anywhere and whatever the login would store but the table cannot hold are refused (the client turns
 * a refused answer into the auth server's 502), and the role floor takes the lower role.
 */
import { describe, expect, it } from 'vitest';
import { lowerRole } from '#lib/auth/roles';
import { authServerUser } from '#lib/auth-server/user-answer';

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { n: nested(depth - 1) });
const ok = (answer: unknown) => authServerUser.safeParse(answer).success;

describe('userinfo answers', () => {
  it('accepts an ordinary answer, also with shadowing-but-harmless keys and deep-but-storable extraData', () => {
    expect(ok({ id: 7, email: 'a@example.org', firstName: 'A', extraData: { bio: 'b', n: [1, 2.5, { x: null }] } })).toBe(true);
    expect(ok({ sub: 's', extraData: { hasOwnProperty: 1, toString: 'x', valueOf: null } })).toBe(true);
    expect(ok({ id: 'x', extraData: { d: nested(29) } })).toBe(true);
  });

  it.each([
    ['constructor in extraData', '{"id":1,"extraData":{"constructor":{"prototype":{"role":"admin"}}}}'],
    ['own __proto__ in extraData', '{"id":1,"extraData":{"__proto__":{"role":"admin"}}}'],
    ['nested __proto__', '{"id":1,"extraData":{"a":{"__proto__":{"polluted":true}}}}'],
    ['constructor in an array', '{"id":1,"extraData":{"b":[{"constructor":1}]}}'],
    ['a reserved key outside extraData', '{"id":1,"profile":{"prototype":1}}'],
  ])('refuses %s', (_name, json) => {
    expect(ok(JSON.parse(json))).toBe(false);
  });

  it.each([
    ['nested 40 deep', { id: 1, extraData: { d: nested(40) } }],
    ['an empty key', { id: 1, extraData: { '': 1 } }],
    ['an empty nested key', { id: 1, extraData: { a: { '': 1 } } }],
    ['a number beyond 2^53', { id: 1, extraData: { n: 2 ** 60 } }],
    ['a number below 1e-130', { id: 1, extraData: { n: 1e-200 } }],
    ['more than an item', { id: 1, extraData: { blob: 'x'.repeat(410_000) } }],
    ['more than an item, spread over fields', { id: 1, extraData: { a: 'x'.repeat(210_000), b: 'y'.repeat(200_000) } }],
  ])('refuses what cannot be stored: %s', (_name, answer) => {
    expect(ok(answer)).toBe(false);
  });
});

describe('why an answer is refused', () => {
  const messages = (answer: unknown) => authServerUser.safeParse(answer).error?.issues.map((issue) => issue.message);

  it('names the reserved key, the part that cannot be stored with its path, or the size', () => {
    expect(messages(JSON.parse('{"id":1,"extraData":{"b":[{"constructor":1}]}}'))).toEqual([expect.stringMatching(/^reserved key at extraData\.b.*constructor$/)]);
    expect(messages({ id: 1, extraData: { n: 2 ** 60 } })).toEqual([expect.stringMatching(/^extraData\.n must be a number from /)]);
    expect(messages({ id: 1, extraData: { blob: 'x'.repeat(410_000) } })).toEqual(['is too large to store']);
  });
});

describe('role floor', () => {
  it('takes the lower role; no floor leaves the role', () => {
    expect(lowerRole('admin', 'member')).toBe('member');
    expect(lowerRole('member', 'admin')).toBe('member');
    expect(lowerRole('editor', undefined)).toBe('editor');
    expect(lowerRole('moderator', 'moderator')).toBe('moderator');
  });
});
