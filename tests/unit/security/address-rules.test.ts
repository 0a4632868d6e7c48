/**
 * The pure rules behind the auth-server address and brute-force rules: which auth-server addresses are refused on which
 * stage (lib/auth-server/address-policy.ts), and how a client address is counted and exempted by the
 * brute-force limit (lib/request/rate-limit.ts).
 */
import { describe, expect, it } from 'vitest';
import { addressProblem, authServerUrlProblem, hostProblem } from '#lib/auth-server/address-policy';
import { counterAddress, isExempt } from '#lib/request/rate-limit';

describe('auth-server addresses', () => {
  it.each([
    '169.254.169.254', // EC2, GCP, Azure, OpenStack metadata
    '169.254.170.2', // ECS task metadata
    '169.254.0.1',
    '100.100.100.200', // Alibaba metadata
    'fe80::1',
    'FE80::abcd',
    'febf::1',
    'fd00:ec2::254', // EC2 IPv6 metadata
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe', // NAT64 of the metadata address
  ])('always refuses %s', (address) => {
    expect(addressProblem(address, true)).toMatch(/link-local or cloud-metadata/);
    expect(addressProblem(address, false)).toMatch(/link-local or cloud-metadata/);
  });

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0.0.0.0',
    '::',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.255',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
    '255.255.255.255',
    'ff02::1',
  ])('refuses %s outside the local stage only', (address) => {
    expect(addressProblem(address, false)).toMatch(/loopback, private or reserved/);
    expect(addressProblem(address, true)).toBeUndefined();
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.253.255.255', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450::1'])(
    'allows the public address %s on every stage',
    (address) => {
      expect(addressProblem(address, false)).toBeUndefined();
      expect(addressProblem(address, true)).toBeUndefined();
    },
  );

  it('reads host names as the URL parser does: decimal, octal, hex and short IPv4 forms are addresses', () => {
    for (const url of ['https://2130706433/', 'https://0x7f000001/', 'https://017700000001/', 'https://0x7f.1/', 'https://127.1/', 'https://[::ffff:7f00:1]/', 'https://[0:0:0:0:0:ffff:127.0.0.1]/']) {
      expect(authServerUrlProblem(url, false), url).toMatch(/internal address/);
      expect(authServerUrlProblem(url, true), url).toBeUndefined();
    }
    for (const url of ['http://2852039166/', 'http://0xa9.0xfe.0xa9.0xfe/', 'http://[::ffff:a9fe:a9fe]/', 'http://169.254.169.254./']) {
      expect(authServerUrlProblem(url, true), url).toMatch(/internal address/);
    }
  });

  it('refuses metadata names always and localhost names outside the local stage', () => {
    for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata', 'instance-data', 'metadata.goog']) {
      expect(hostProblem(host, true), host).toMatch(/metadata/);
    }
    for (const host of ['localhost', 'LOCALHOST', 'api.localhost', '[::1]']) {
      expect(hostProblem(host, false), host).toBeDefined();
      expect(hostProblem(host, true), host).toBeUndefined();
    }
    expect(hostProblem('auth.example.org', false)).toBeUndefined();
  });

  it('wants https outside the local stage, and http(s) everywhere', () => {
    expect(authServerUrlProblem('https://auth.example.org/base', false)).toBeUndefined();
    expect(authServerUrlProblem('http://auth.example.org', false)).toBe('must be an https URL');
    expect(authServerUrlProblem('http://auth.example.org', true)).toBeUndefined();
    expect(authServerUrlProblem('ftp://auth.example.org', true)).toBe('must be an http(s) URL');
    expect(authServerUrlProblem('file:///etc/passwd', true)).toBe('must be an http(s) URL');
    expect(authServerUrlProblem('auth.example.org', true)).toBe('must be an absolute http(s) URL');
  });
});

describe('brute-force client addresses', () => {
  it('counts IPv4 as is, IPv6 by its /64, IPv4-mapped IPv6 as IPv4', () => {
    expect(counterAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(counterAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(counterAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(counterAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(counterAddress('::1')).toBe('0:0:0:0::/64');
    expect(counterAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('exempts exact addresses and CIDR ranges of ignoreBruteForce, and skips unreadable entries', () => {
    const list = ['198.51.100.7', '192.0.2.0/24', '2001:db8::/32', 'garbage', '10.0.0.0/99', ''];
    expect(isExempt('198.51.100.7', list)).toBe(true);
    expect(isExempt('198.51.100.8', list)).toBe(false);
    expect(isExempt('192.0.2.255', list)).toBe(true);
    expect(isExempt('192.0.3.0', list)).toBe(false);
    expect(isExempt('2001:db8:ffff::1', list)).toBe(true);
    expect(isExempt('10.0.0.1', list)).toBe(false);
    expect(isExempt('198.51.100.7', undefined)).toBe(false);
    expect(isExempt('not-an-ip', ['not-an-ip'])).toBe(false);
  });
});
