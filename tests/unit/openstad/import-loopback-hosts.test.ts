/**
 * The import names its source by `--source` when the host is this machine (a tunnel or a local copy
 * does not say which city's database it is): every spelling of a loopback address counts, not only
 * the usual ones.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, parseImportCommand } from '../../../scripts/import-openstad.ts';

describe('which hosts are this machine', () => {
  it.each(['127.0.0.1', '127.1', '127.0.1', '127.255.255.254', '2130706433', '0x7f.1', '0.0.0.0', '0', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::', 'localhost', 'LOCALHOST', 'localhost.', 'db.localhost'])(
    '%s is loopback: the import asks for --source',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
      expect(() => parseImportCommand(['--database', 'openstad_api', '--host', host])).toThrow(/loopback address .* --source/);
    },
  );

  it.each(['db.example.org', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', 'localhost.example.org', 'my-localhost'])('%s is not: its key names host, port and database', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(parseImportCommand(['--database', 'openstad_api', '--host', host]).sourceKey).toBe(`openstad:${host}:3306/openstad_api`);
  });
});
