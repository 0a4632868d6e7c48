/**
 * Two cities' OpenStad databases, each called openstad_api behind an SSH tunnel on 127.0.0.1:3306:
 * the command's source key (the id reservation's key, and that of what the import knows it copied)
 * must tell them apart. A loopback host without `--source` is refused; with it, each city has its own
 * reservation, and the second city's users are not taken for users deleted here.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `openstad-source-key-${process.pid}-${Date.now()}`;
});

import { createConnection } from 'mysql2/promise';
import { mariaDbMissing, startMariaDb, type MariaDb } from '#tests/support/mariadb';
import { SITE, writeOpenStadDatabase } from '#tests/support/openstad-db/fixture';
import { openSource } from '../../../scripts/import-openstad/source.ts';
import { importOpenStad } from '../../../scripts/import-openstad/run.ts';
import { parseImportCommand } from '../../../scripts/import-openstad.ts';
import { ensureTable } from '#lib/store/db/table';
import { getUser } from '#lib/store/users/users';

const missing = mariaDbMissing();
if (missing) console.warn(missing);

const OTHER_SITE = 3;
/** The command line of one city's import through its tunnel. */
const tunnel = (...extra: string[]) => parseImportCommand(['--database', 'openstad_api', '--host', '127.0.0.1', '--port', '3306', ...extra]);

describe.skipIf(missing !== undefined)('import-openstad: the source key names the database, not how it is reached', () => {
  let db: MariaDb;
  beforeAll(async () => {
    await ensureTable();
    db = await startMariaDb();
    await writeOpenStadDatabase(db, 'city_a');
    await writeOpenStadDatabase(db, 'city_b');
    // City B: its site 3 is live, and its user 13 (another person than city A's user 13) is on it.
    const b = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'city_b' });
    await b.query("UPDATE sites SET deletedAt = NULL, name = 'andere-stad', domain = 'andere.example.org' WHERE id = ?", [OTHER_SITE]);
    await b.query("UPDATE users SET siteId = ?, email = 'c@andere.example.org', firstName = 'Cees', createdAt = '2024-01-01 10:00:00' WHERE id = 13", [OTHER_SITE]);
    await b.end();
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('a loopback host without --source is refused; with it, the two cities get two keys (and the old key stays reachable)', () => {
    expect(() => tunnel()).toThrow(/loopback address .* --source/);
    expect(() => parseImportCommand(['--database', 'openstad_api', '--host', 'localhost'])).toThrow(/loopback address/);
    expect(tunnel('--source', 'city-a').sourceKey).toBe('openstad:city-a');
    expect(tunnel('--source', 'city-b').sourceKey).toBe('openstad:city-b');
    // An import begun through a tunnel before --source: its old key, given as the source name.
    expect(tunnel('--source', '127.0.0.1:3306/openstad_api').sourceKey).toBe('openstad:127.0.0.1:3306/openstad_api');
    // A host that is not loopback keeps the key it always had.
    expect(parseImportCommand(['--database', 'openstad_api', '--host', 'db.city.example']).sourceKey).toBe('openstad:db.city.example:3306/openstad_api');
  });

  it("city B's user 13 is not reported as deleted here, nor skipped as such", async () => {
    const a = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'city_a' });
    await importOpenStad(a, { sourceKey: tunnel('--source', 'city-a').sourceKey, dryRun: false, siteIds: [SITE] });
    await a.close();
    expect(await getUser(SITE, 13)).toMatchObject({ email: 'b@example.org' });

    const b = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'city_b' });
    const [report] = await importOpenStad(b, { sourceKey: tunnel('--source', 'city-b').sourceKey, dryRun: false, siteIds: [OTHER_SITE] });
    await b.close();
    // City A's user 13 is untouched.
    expect(await getUser(SITE, 13)).toMatchObject({ email: 'b@example.org' });
    // Nobody was deleted here: city B's site (and so Cees) is reported as not copied because city A's
    // import holds its id, never as deleted here.
    expect(report!.kinds.site.notCopied).toEqual([{ id: OTHER_SITE, reason: expect.stringContaining('handed out by this deployment before the import') }]);
    expect(report!.kinds.user.deletedHere).toBe(0);
    expect(await getUser(OTHER_SITE, 13)).toBeUndefined();
  });
});
