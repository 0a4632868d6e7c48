/**
 * The ids an import reserves are the ids it may keep: a source row with an id of 10^9 or more (which
 * no import keeps, lib/store/db/ids.ts COUNTER_IDS_BELOW) must not raise the reservation, or every
 * later import (of another source) would find its ids "taken" and keep none. Two OpenStad databases
 * on one MariaDB, into a table of this file's own.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `openstad-kept-ids-${process.pid}-${Date.now()}`;
});

import { createConnection } from 'mysql2/promise';
import { mariaDbMissing, startMariaDb, type MariaDb } from '#tests/support/mariadb';
import { SITE, writeOpenStadDatabase } from '#tests/support/openstad-db/fixture';
import { OPENSTAD_TABLES } from '#tests/support/openstad-db/schema';
import { openSource } from '../../../scripts/import-openstad/source.ts';
import { importOpenStad, type SiteImportReport } from '../../../scripts/import-openstad/run.ts';
import { ensureTable } from '#lib/store/db/table';
import { getItems } from '#lib/store/db/read';
import { importKeys } from '#lib/store/imports/keys';
import { getUser } from '#lib/store/users/users';
import { getSite } from '#lib/store/sites/sites';

const missing = mariaDbMissing();
if (missing) console.warn(missing);

const BIG_USER = 2_000_000_000;
const LATER_SITE = 4;
const LATER_USER = 30;
const T0 = '2023-03-01 09:30:00';

async function withDatabase(db: MariaDb, database: string, statements: [string, unknown[]][]): Promise<void> {
  const connection = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database });
  for (const [sql, values] of statements) await connection.query(sql, values);
  await connection.end();
}

const importFrom = async (db: MariaDb, database: string): Promise<SiteImportReport[]> => {
  const source = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database });
  try {
    return await importOpenStad(source, { sourceKey: `openstad:${database}`, dryRun: false });
  } finally {
    await source.close();
  }
};

describe.skipIf(missing !== undefined)('import-openstad: ids that may not be kept reserve nothing', () => {
  let db: MariaDb;

  beforeAll(async () => {
    await ensureTable();
    db = await startMariaDb();
    await writeOpenStadDatabase(db, 'first_city');
    await withDatabase(db, 'first_city', [
      [
        'INSERT INTO users (id, siteId, externalUserId, role, extraData, email, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [BIG_USER, SITE, 509, 'member', '{}', 'big@example.org', T0, T0],
      ],
    ]);
    const admin = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password });
    await admin.query('CREATE DATABASE second_city CHARACTER SET utf8');
    await admin.end();
    await withDatabase(db, 'second_city', [
      ...OPENSTAD_TABLES.map((ddl): [string, unknown[]] => [ddl, []]),
      [
        'INSERT INTO sites (id, name, title, domain, config, hostStatus, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [LATER_SITE, 'dorp', 'Plannen voor het dorp', 'dorp.example.org', '{}', '{}', T0, T0],
      ],
      [
        'INSERT INTO users (id, siteId, externalUserId, role, extraData, email, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [LATER_USER, LATER_SITE, null, 'member', '{}', 'dorp@example.org', T0, T0],
      ],
    ]);
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('a row with an id of 10^9 or more is not copied, and the reservation stops at the highest id that may be kept', async () => {
    const reports = await importFrom(db, 'first_city');
    const users = reports.find((r) => r.siteId === SITE)!.kinds.user;
    expect(users.notCopied).toEqual([{ id: BIG_USER, reason: expect.stringContaining('10^9 or more') }]);
    expect(await getUser(SITE, BIG_USER)).toBeUndefined();
    const [reservation] = await getItems([importKeys.importReservation('openstad:first_city')]);
    expect((reservation?.['ceilings'] as Record<string, number>)['user']).toBe(21);
  });

  it('a later import of another source keeps its ids above the first one’s', async () => {
    const reports = await importFrom(db, 'second_city');
    const kinds = reports.find((r) => r.siteId === LATER_SITE)!.kinds;
    expect(kinds.site.copied).toBe(1);
    expect(kinds.user).toMatchObject({ copied: 1, notCopied: [] });
    expect(await getSite(LATER_SITE)).toBeDefined();
    expect((await getUser(LATER_SITE, LATER_USER))?.email).toBe('dorp@example.org');
  });
});
