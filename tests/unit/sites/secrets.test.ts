/**
 * Which config keys are secrets is declared once, in the config schema (lib/sites/secrets.ts walks
 * it), and the mask rules over them: masked on read, kept when the mask is sent back, refused where
 * nothing is stored.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ANY_INDEX, ANY_KEY, keepStoredSecrets, maskSecrets, SECRET_MASK, SECRET_PATHS, sendsMask, writeOnlyPaths, writeOnlySecrets } from '#lib/sites/secrets';
import { siteConfigSchema } from '#schemas/site-config';
import { buildOpenApiDocument } from '#lib/openapi/document';

describe('the secrets of the config schema', () => {
  it('are the OAuth client secrets and the Basic Auth password', () => {
    expect(SECRET_PATHS).toEqual([['basicAuth', 'password'], ['oauth', ANY_KEY, 'auth-client-secret']]);
  });

  it('a key marked writeOnly anywhere (an object, a record, an array, optional or nullable) is found without another list', () => {
    const marked = () => z.string().register(z.globalRegistry, { writeOnly: true });
    const schema = z.object({
      plain: z.string(),
      a: z.optional(z.object({ token: z.nullable(marked()) })),
      b: z.record(z.string(), z.array(z.looseObject({ key: marked() }))),
    });
    expect(writeOnlyPaths(schema)).toEqual([['a', 'token'], ['b', ANY_KEY, ANY_INDEX, 'key']]);
  });

  it('the OpenAPI document marks them writeOnly, with what a read shows', () => {
    const config = buildOpenApiDocument().components.schemas['SiteConfig'] as { properties: Record<string, { properties?: Record<string, unknown>; additionalProperties?: { properties: Record<string, unknown> } }> };
    expect(config.properties['basicAuth']!.properties!['password']).toMatchObject({ writeOnly: true, description: expect.stringContaining(SECRET_MASK) });
    expect(config.properties['oauth']!.additionalProperties!.properties['auth-client-secret']).toMatchObject({ writeOnly: true });
  });
});

describe('masking and keeping', () => {
  const stored = {
    oauth: { default: { 'auth-client-id': 'id', 'auth-client-secret': 's1' }, backup: { 'auth-client-secret': 's2' } },
    basicAuth: { active: true, user: 'u', password: 'pw' },
    votes: { isActive: true },
  };

  it('every read shows the mask, leaves the rest and its input alone', () => {
    const copy = structuredClone(stored);
    expect(maskSecrets(stored)).toEqual({
      oauth: { default: { 'auth-client-id': 'id', 'auth-client-secret': SECRET_MASK }, backup: { 'auth-client-secret': SECRET_MASK } },
      basicAuth: { active: true, user: 'u', password: SECRET_MASK },
      votes: { isActive: true },
    });
    expect(stored).toEqual(copy);
    // Nothing to hide: the very object, no copy.
    const plain = { votes: { isActive: true }, oauth: { default: { 'auth-client-id': 'x' } } };
    expect(maskSecrets(plain)).toBe(plain);
  });

  it('the mask sent back takes the stored value at the same path; a new value stays as sent', () => {
    const sent = { oauth: { default: { 'auth-client-secret': SECRET_MASK }, backup: { 'auth-client-secret': 'new' } }, basicAuth: { password: SECRET_MASK } };
    expect(sendsMask(sent)).toBe(true);
    expect(keepStoredSecrets(sent, stored)).toEqual({ oauth: { default: { 'auth-client-secret': 's1' }, backup: { 'auth-client-secret': 'new' } }, basicAuth: { password: 'pw' } });
    expect(sendsMask({ oauth: { default: { 'auth-client-secret': 'x' } }, custom: SECRET_MASK })).toBe(false);
  });

  it('a mask with nothing stored under its path is a 400 naming each such path', () => {
    const sent = { oauth: { renamed: { 'auth-client-secret': SECRET_MASK } }, basicAuth: { password: SECRET_MASK } };
    expect(() => keepStoredSecrets(sent, { oauth: { default: { 'auth-client-secret': 's1' } } })).toThrow(
      expect.objectContaining({ status: 400, details: [{ path: 'config.basicAuth.password', message: expect.any(String) }, { path: 'config.oauth.renamed.auth-client-secret', message: expect.any(String) }] }),
    );
    expect(() => keepStoredSecrets(sent, undefined)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('a stored secret only goes where it was written for', () => {
  const stored = { oauth: { default: { 'auth-server-url': 'https://auth.example', 'auth-client-secret': 's1' } }, basicAuth: { password: 'pw' } };
  const moved = { 'auth-server-url': 'https://evil.example' };

  it('the OAuth client secret is declared as sent to its entry\'s auth-server-url', () => {
    expect(writeOnlySecrets(siteConfigSchema)).toEqual([
      { path: ['basicAuth', 'password'], sentTo: [] },
      { path: ['oauth', ANY_KEY, 'auth-client-secret'], sentTo: ['auth-server-url'] },
    ]);
  });

  it('the mask, or a merge that keeps the stored secret, beside a changed server: 400 naming the secret', () => {
    const withMask = { oauth: { default: { ...moved, 'auth-client-secret': SECRET_MASK } } };
    expect(() => keepStoredSecrets(withMask, stored)).toThrow(expect.objectContaining({ status: 400, details: [{ path: 'config.oauth.default.auth-client-secret', message: expect.stringContaining('auth-server-url changed') }] }));
    const merged = { oauth: { default: { ...moved, 'auth-client-secret': 's1' } }, basicAuth: { password: 'pw' } };
    expect(() => keepStoredSecrets(merged, stored, { sent: { oauth: { default: moved } } })).toThrow(expect.objectContaining({ status: 400 }));
    // A server removed is a change too: the secret would go to the default one.
    expect(() => keepStoredSecrets({ oauth: { default: { 'auth-client-secret': SECRET_MASK } } }, stored)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('the secret sent again with the new server, a new secret, or an unchanged server: kept as asked', () => {
    const again = { oauth: { default: { ...moved, 'auth-client-secret': 's1' } } };
    expect(keepStoredSecrets(again, stored)).toEqual(again);
    const merged = { oauth: { default: { ...moved, 'auth-client-secret': 's1' } } };
    expect(keepStoredSecrets(merged, stored, { sent: { oauth: { default: { ...moved, 'auth-client-secret': 's1' } } } })).toEqual(merged);
    const same = { oauth: { default: { 'auth-server-url': 'https://auth.example', 'auth-client-secret': SECRET_MASK } }, basicAuth: { password: SECRET_MASK } };
    expect(keepStoredSecrets(same, stored)).toEqual(stored);
  });
});
