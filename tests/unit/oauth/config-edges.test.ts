/**
 * Edges of the auth-server configuration (lib/auth-server/config.ts) and the address rules
 * (lib/auth-server/address-policy.ts) that tests/unit/security/ does not reach: credentials in the URL,
 * the key length boundary, a site without a default entry, half-written config entries, and the
 * message each refused host gets.
 */
import { describe, expect, it } from 'vitest';
import { addressProblem, authServerUrlProblem, hostProblem } from '#lib/auth-server/address-policy';
import { authServerByUrl, authServerUrlDetails, normaliseAuthServerUrl } from '#lib/auth-server/config';
import { withDefaults } from '#lib/sites/config-defaults';

describe('normaliseAuthServerUrl', () => {
  it('refuses a user name or a password alone, as well as both', () => {
    expect(normaliseAuthServerUrl('https://user@auth.example')).toBeUndefined();
    expect(normaliseAuthServerUrl('https://:pw@auth.example')).toBeUndefined();
    expect(normaliseAuthServerUrl('https://user:pw@auth.example')).toBeUndefined();
    expect(normaliseAuthServerUrl('https://auth.example/')).toBe('https://auth.example');
  });

  it('keeps a URL of up to 512 characters (it is part of DynamoDB keys), not one more', () => {
    const base = 'https://auth.example/';
    const ofLength = (n: number) => base + 'p'.repeat(n - base.length);
    expect(normaliseAuthServerUrl(ofLength(512))).toBe(ofLength(512));
    expect(normaliseAuthServerUrl(ofLength(513))).toBeUndefined();
  });
});

describe('authServerByUrl', () => {
  it('finds a non-default entry on a site that has no default entry', () => {
    const config = withDefaults({ oauth: { other: { 'auth-server-url': 'https://other.example/', 'auth-client-id': 'c', 'auth-client-secret': 's' } } });
    expect(authServerByUrl(1, config, 'https://other.example')).toMatchObject({ name: 'other', url: 'https://other.example' });
  });
});

describe('authServerUrlDetails', () => {
  it('skips entries that are not objects or have no url yet; reports only the refused ones', () => {
    const config = { oauth: { empty: null, none: {}, blank: { 'auth-server-url': '' }, number: { 'auth-server-url': 5 }, bad: { 'auth-server-url': 'http://10.0.0.1' } } };
    expect(authServerUrlDetails(config, false)).toEqual([
      { path: 'config.oauth.bad.auth-server-url', message: 'must not point to an internal address: its host is a loopback, private or reserved address' },
    ]);
  });

  it('a config without an oauth object has nothing to report', () => {
    for (const config of [undefined, {}, { oauth: null }, { oauth: 'https://10.0.0.1' }]) expect(authServerUrlDetails(config, false)).toEqual([]);
  });
});

describe('what each refused host is told', () => {
  it('a name is not an address', () => {
    expect(addressProblem('auth.example', true)).toBe('is not an IP address');
    expect(addressProblem('127.0.0.1', true)).toBeUndefined();
  });

  it('localhost outside the local stage, and every metadata name on any stage', () => {
    expect(authServerUrlProblem('https://localhost', false)).toBe('must not point to an internal address: its host is a loopback address');
    for (const name of ['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']) {
      expect(hostProblem(name, true)).toBe('is a cloud-metadata address');
    }
  });
});
