/**
 * The import command's source key names the OpenStad database, not the way it is reached: a loopback
 * host (a tunnel or a local copy) needs --source; a host reached directly keeps the key earlier
 * versions made, and --source can name that old key to continue an import begun through a tunnel.
 */
import { describe, expect, it } from 'vitest';
import { parseImportCommand, sourceKeyOf } from '../../../scripts/import-openstad.ts';

describe('import-openstad source key', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '0.0.0.0'])('refuses the loopback host %s without --source', (host) => {
    expect(() => sourceKeyOf(host, 3306, 'openstad_api', undefined)).toThrow(/loopback address/);
  });

  it('names the source with --source, whatever the host', () => {
    expect(sourceKeyOf('127.0.0.1', 3306, 'openstad_api', 'amsterdam')).toBe('openstad:amsterdam');
    expect(sourceKeyOf('db.city.example', 3306, 'openstad_api', 'amsterdam')).toBe('openstad:amsterdam');
  });

  it('keeps the old key for a host reached directly, and lets --source name an old tunnel key', () => {
    expect(sourceKeyOf('db.city.example', 3307, 'openstad_api', undefined)).toBe('openstad:db.city.example:3307/openstad_api');
    expect(sourceKeyOf('127.0.0.1', 3306, 'openstad_api', '127.0.0.1:3306/openstad_api')).toBe('openstad:127.0.0.1:3306/openstad_api');
  });

  it('refuses a --source with characters a key should not hold', () => {
    expect(() => sourceKeyOf('127.0.0.1', 3306, 'x', '')).toThrow(/--source must be/);
    expect(() => sourceKeyOf('127.0.0.1', 3306, 'x', 'a b')).toThrow(/--source must be/);
    expect(() => sourceKeyOf('127.0.0.1', 3306, 'x', '#evil')).toThrow(/--source must be/);
  });

  it('the parsed command carries the key', () => {
    expect(parseImportCommand(['--database', 'openstad_api', '--source', 'city-b']).sourceKey).toBe('openstad:city-b');
    expect(() => parseImportCommand(['--database', 'openstad_api'])).toThrow(/--source/);
  });
});
