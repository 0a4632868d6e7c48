/**
 * Red team of 42a0e4d: two cities' OpenStad databases reached under the same source key (the CLI's key
 * is `openstad:<host>:<port>/<database>`: two databases called openstad_api, each behind an SSH
 * tunnel on 127.0.0.1:3306, get one key). The second import then shares the first one's reservation,
 * and a user of the second city whose id a user of the first city had is taken for "deleted here
 * since an earlier run": skipped in silence, their votes too, with a report that says something false.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `openstad-redteam-key-${process.pid}-${Date.now()}`;
});

import { createConnection } from 'mysql2/promise';
import { mariaDbMissing, startMariaDb, type MariaDb } from '#tests/support/mariadb';
import { SITE, writeOpenStadDatabase } from '#tests/support/openstad-db/fixture';
import { openSource } from '../../../scripts/import-openstad/source.ts';
import { importOpenStad } from '../../../scripts/import-openstad/run.ts';
import { ensureTable } from '#lib/store/db/table';
import { getUser } from '#lib/store/users/users';

const missing = mariaDbMissing();
if (missing) console.warn(missing);

/** What the CLI makes of both tunnels. */
const sourceKey = 'openstad:127.0.0.1:3306/openstad_api';
const OTHER_SITE = 3;

describe.skipIf(missing !== undefined)('red team: a second database under the same source key', () => {
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

  it("city B's user 13 is not reported as deleted here, nor skipped as such", async () => {
    const a = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'city_a' });
    await importOpenStad(a, { sourceKey, dryRun: false, siteIds: [SITE] });
    await a.close();
    expect(await getUser(SITE, 13)).toMatchObject({ email: 'b@example.org' });

    const b = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'city_b' });
    const [report] = await importOpenStad(b, { sourceKey, dryRun: false, siteIds: [OTHER_SITE] });
    await b.close();
    console.log(JSON.stringify({ site: report!.kinds.site, user: report!.kinds.user }, null, 1));
    // City A's user 13 is untouched either way.
    expect(await getUser(SITE, 13)).toMatchObject({ email: 'b@example.org' });
    // Nobody was deleted here: a report that says so misleads the operator, and Cees is dropped in silence.
    expect.soft(report!.kinds.user.deletedHere, 'a user never here is reported as deleted here').toBe(0);
    expect.soft(report!.kinds.user.notCopied.map((n) => n.id)).toContain(13);
  });
});
