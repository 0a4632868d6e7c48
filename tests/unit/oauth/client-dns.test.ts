/**
 * The client's DNS guard (lib/auth-server/client.ts, guardedLookup): an auth server given by NAME is checked
 * at connection time against every address the name resolves to. node:dns is replaced by a table of
 * names, so a name can resolve to the scripted server on 127.0.0.1 (allowed on the local stage)
 * together with a refused address: the call must then never reach the server.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#lib/log/logger';
import { fetchUser } from '#lib/auth-server/client';
import { reply, startAuthServer, type AuthServerDouble } from '#tests/unit/oauth/auth-server-double';

const names = vi.hoisted(() => new Map<string, LookupAddress[] | NodeJS.ErrnoException>());

vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  type Callback = (err: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;
  // As dns.lookup answers: an error, all addresses when asked for all, else the first one.
  const lookup = (hostname: string, options: { all?: boolean }, callback: Callback) => {
    const known = names.get(hostname);
    if (known === undefined) return (actual.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    setImmediate(() => {
      if (known instanceof Error) callback(known);
      else if (options.all) callback(null, known);
      else callback(null, known[0]?.address, known[0]?.family);
    });
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

let auth: AuthServerDouble;
beforeAll(async () => {
  auth = await startAuthServer();
});
afterAll(() => auth.close());
beforeEach(() => {
  auth.seen = [];
  auth.answer = reply(200, { id: 9 });
  names.clear();
  vi.restoreAllMocks();
});

const LOOPBACK = { address: '127.0.0.1', family: 4 };
const METADATA = { address: '169.254.169.254', family: 4 };
const byName = (name: string) => ({ ...auth.config(), url: `http://${name}:${auth.port}/base` });
const GATEWAY = { status: 502, message: 'The auth server could not complete reading the user; please try again later' };

describe('an auth server given by name', () => {
  it('is called at the address its name resolves to', async () => {
    names.set('auth.test', [LOOPBACK]);
    await expect(fetchUser(byName('auth.test'), 9)).resolves.toMatchObject({ id: 9 });
    expect(auth.seen).toHaveLength(1);
    expect(auth.seen[0]!.headers.host).toBe(`auth.test:${auth.port}`);
  });

  it('is refused, without a connection, when any one of its addresses is refused', async () => {
    const warn = vi.spyOn(logger, 'warn');
    names.set('mixed.test', [LOOPBACK, METADATA]);
    await expect(fetchUser(byName('mixed.test'), 9)).rejects.toMatchObject(GATEWAY);
    names.set('metadata-first.test', [METADATA, LOOPBACK]);
    await expect(fetchUser(byName('metadata-first.test'), 9)).rejects.toMatchObject(GATEWAY);
    expect(auth.seen).toEqual([]);
    expect(warn.mock.calls.map(([, fields]) => (fields as { error: string }).error)).toEqual([
      'mixed.test resolves to a refused address',
      'metadata-first.test resolves to a refused address',
    ]);
  });

  it('a name that resolves to nothing, or does not resolve, is the same 502', async () => {
    const warn = vi.spyOn(logger, 'warn');
    names.set('empty.test', []);
    await expect(fetchUser(byName('empty.test'), 9)).rejects.toMatchObject(GATEWAY);
    names.set('missing.test', Object.assign(new Error('getaddrinfo ENOTFOUND missing.test'), { code: 'ENOTFOUND' }));
    await expect(fetchUser(byName('missing.test'), 9)).rejects.toMatchObject(GATEWAY);
    expect(warn.mock.calls.map(([, fields]) => (fields as { error: string }).error)).toEqual([
      'empty.test resolves to a refused address',
      'getaddrinfo ENOTFOUND missing.test',
    ]);
  });
});
