/**
 * An auth server whose userinfo answers we control (a site's
 * admin picks its auth-server-url; or a compromised / buggy openstad-auth). Whatever it answers, a
 * login is a 302 or a 4xx/502, never a 5xx of our own (CONTRACT: the auth server failing is 502), and
 * it never reaches another site's users.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';
import { createSite } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as digestHandler } from '../../../functions/oauth/digest-login.ts';
import { API_HOST, FRONTEND, oauthConfig } from '../oauth/login-helpers.ts';

let server: Server;
let url: string;
/** What the next userinfo request answers. */
let userinfo: unknown = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/oauth/token')) return res.end(JSON.stringify({ access_token: 'evil-token', token_type: 'Bearer' }));
      if (req.url?.startsWith('/api/userinfo')) return res.end(JSON.stringify(userinfo));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function loginWith(siteId: number, answer: unknown) {
  userinfo = answer;
  const start = await invoke(loginHandler, { params: { siteId }, query: { redirectUrl: `${FRONTEND}/x` }, headers: { host: API_HOST } });
  expect(start.status, JSON.stringify(start.body)).toBe(302);
  const state = new URL(start.headers.location!).searchParams.get('state')!;
  // Once the login cookie exists, the browser sends it back: `name=value` of each Set-Cookie.
  const setCookies = (start as { cookies?: string[] }).cookies ?? [];
  const cookies = setCookies.map((c) => c.split(';')[0]!).filter((pair) => !pair.endsWith('='));
  const options = { params: { siteId }, query: { code: 'any-code', state }, ...(cookies.length ? { cookies } : {}) };
  return invoke(digestHandler, options as Parameters<typeof invoke>[1]);
}

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { n: nested(depth - 1) });

describe('userinfo answers that our table cannot hold', () => {
  const bad: [string, (n: number) => Record<string, unknown>][] = [
    ['extraData bigger than an item (600 KB string)', (n) => ({ id: `big-${n}`, email: `big${n}@example.org`, extraData: { blob: 'x'.repeat(600_000) } })],
    ['extraData nested 40 deep (DynamoDB allows 32)', (n) => ({ id: `deep-${n}`, email: `deep${n}@example.org`, extraData: { d: nested(40) } })],
    ['extraData with an empty key', (n) => ({ id: `empty-${n}`, email: `empty${n}@example.org`, extraData: { '': { '': 1 } } })],
  ];

  it.each(bad)('first login: %s -> 302/400/502, never 500', async (_name, body) => {
    const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(url) } });
    const res = await loginWith(site.id, body(site.id));
    expect([302, 400, 502], JSON.stringify(res.body)).toContain(res.status);
  });

  it.each(bad)('a later login of a known user: %s -> 302/400/502, never 500', async (_name, body) => {
    const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(url) } });
    const evil = body(site.id);
    expect((await loginWith(site.id, { id: evil.id, email: evil.email })).status).toBe(302);
    const res = await loginWith(site.id, evil);
    expect([302, 400, 502], JSON.stringify(res.body)).toContain(res.status);
  });
});

describe('userinfo extraData with reserved or shadowing keys (an auth server that still holds them from before the body rule)', () => {
  const raw: [string, string][] = [
    ['constructor', '{"constructor":{"prototype":{"role":"admin"}},"bio":"b"}'],
    ['own __proto__', '{"__proto__":{"role":"admin","listableByRole":"all"},"x":1}'],
    ['nested __proto__', '{"a":{"__proto__":{"polluted":true}},"b":[{"constructor":1}]}'],
    ['hasOwnProperty / toString / valueOf', '{"hasOwnProperty":1,"toString":"x","valueOf":null}'],
  ];

  it.each(raw)('%s: the login works (or is a 502), the user is a member, nothing is polluted', async (_name, extra) => {
    const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(url) } });
    const answer = JSON.parse(`{"id":"reserved-${site.id}","email":"r${site.id}@example.org","extraData":${extra}}`);
    for (const attempt of [1, 2]) {
      const res = await loginWith(site.id, answer);
      expect([302, 502], `login ${attempt}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});


describe('a user record stored before the userinfo rule, already holding what the table cannot take back', () => {
  it('constructor / nested __proto__ in the stored extraData: later logins are 302, the record is cleaned', async () => {
    const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(url) } });
    const who = { id: `poisoned-${site.id}`, email: `p${site.id}@example.org`, extraData: { bio: 'b' } };
    expect((await loginWith(site.id, who)).status).toBe(302);
    // The poison goes in as raw attribute values: the document client refuses to write it (that was the 500).
    const { userId } = (await getUserLinkRaw(site.id, `${url}|${who.id}`))!;
    await dynamo.send(
      new UpdateItemCommand({
        TableName: TABLE,
        Key: { PK: { S: `SITE#${site.id}` }, SK: { S: userKeys.user(site.id, userId).SK } },
        UpdateExpression: 'SET extraData = :x',
        ExpressionAttributeValues: {
          // JSON.parse: an object literal's `__proto__` would set the prototype instead of a key.
          ':x': JSON.parse('{"M":{"constructor":{"M":{"prototype":{"M":{"role":{"S":"admin"}}}}},"a":{"M":{"__proto__":{"M":{"polluted":{"BOOL":true}}}}}}}'),
        },
      }),
    );
    for (const attempt of [1, 2]) {
      const res = await loginWith(site.id, who);
      expect(res.status, `login ${attempt}: ${JSON.stringify(res.body)}`).toBe(302);
    }
    const stored = await dynamo.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: `SITE#${site.id}` }, SK: { S: userKeys.user(site.id, userId).SK } } }));
    expect(Object.keys(stored.Item!.extraData!.M!)).toEqual(['bio']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

async function getUserLinkRaw(siteId: number, externalKey: string) {
  const out = await dynamo.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: `SITE#${siteId}` }, SK: { S: userKeys.userLink(siteId, externalKey).SK } } }));
  return out.Item ? { userId: Number(out.Item.userId!.N) } : undefined;
}
