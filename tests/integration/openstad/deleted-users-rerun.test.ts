/**
 * A rerun of the OpenStad import never brings back a user deleted here since an earlier run (a person
 * who asked to be deleted stays deleted), linked to the auth server or not, and their votes are not
 * written under them either: what the earlier run copied stays as the delete left it, what it had not
 * copied yet comes in as for a user who was not copied (no author, no ballot).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `openstad-deleted-users-${process.pid}-${Date.now()}`;
});

import { createConnection } from 'mysql2/promise';
import { mariaDbMissing, startMariaDb, type MariaDb } from '#tests/support/mariadb';
import { BUDGET_SITE, SITE, writeOpenStadDatabase } from '#tests/support/openstad-db/fixture';
import { invoke } from '#tests/support/invoke';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { openSource, type OpenStadSource } from '../../../scripts/import-openstad/source.ts';
import { formatImportReport, importOpenStad, type SiteImportReport } from '../../../scripts/import-openstad/run.ts';
import { handler as deleteUser } from '../../../functions/users/delete.ts';
import { ensureTable } from '#lib/store/db/table';
import { getUser } from '#lib/store/users/users';
import { getIdea } from '#lib/store/ideas/ideas';
import { getBallot } from '#lib/store/ballots/ballots';
import { verifySiteVotes } from '#lib/results/verify';

const missing = mariaDbMissing();
if (missing) console.warn(missing);

const database = 'openstad_api';
const sourceKey = 'openstad:deleted-users';
/** A voter of the budget site without an auth-server link, and an idea of theirs. */
const UNLINKED_VOTER = 22;
const THEIR_IDEA = 53;
const T0 = '2023-03-01 09:30:00';

const kinds = (reports: SiteImportReport[], siteId: number) => reports.find((r) => r.siteId === siteId)!.kinds;
const remove = (siteId: number, userId: number) => invoke(deleteUser, { method: 'DELETE', params: { siteId, userId }, token: SERVICE_TOKEN });

describe.skipIf(missing !== undefined)('import-openstad rerun after users were deleted here', () => {
  let db: MariaDb;
  let source: OpenStadSource;

  beforeAll(async () => {
    await ensureTable();
    db = await startMariaDb();
    await writeOpenStadDatabase(db, database);
    const connection = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database });
    await connection.query('INSERT INTO users (id, siteId, externalUserId, role, extraData, email, createdAt, updatedAt) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)', [
      UNLINKED_VOTER, BUDGET_SITE, 'member', '{}', 'zonder@example.org', T0, T0,
    ]);
    await connection.query(
      'INSERT INTO ideas (id, siteId, userId, startDate, status, title, summary, description, budget, extraData, publishDate, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [THEIR_IDEA, BUDGET_SITE, UNLINKED_VOTER, T0, 'OPEN', 'Plan 53 voor de buurt', 'Samenvatting van plan 53 in een paar woorden.', 'Beschrijving van plan 53. '.repeat(8), 20000, '{}', T0, T0, T0],
    );
    await connection.query('INSERT INTO votes (id, ideaId, userId, opinion, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)', [93, 51, UNLINKED_VOTER, 'yes', T0, T0]);
    await connection.end();
    source = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database });
  });
  afterAll(async () => {
    await source?.close();
    await db?.stop();
  });

  it('a first run copies the site whole, and the budget site up to its users (then the connection is lost)', async () => {
    await importOpenStad(source, { sourceKey, dryRun: false, siteIds: [SITE] });
    const failing: OpenStadSource = {
      ...source,
      siteRows: (table, siteId, after) => (table === 'ideas' ? Promise.reject(new Error('connection lost')) : source.siteRows(table, siteId, after)),
    };
    await expect(importOpenStad(failing, { sourceKey, dryRun: false, siteIds: [BUDGET_SITE] })).rejects.toThrow('connection lost');
    expect(await getUser(BUDGET_SITE, UNLINKED_VOTER)).toBeDefined();
    expect(await getIdea(BUDGET_SITE, THEIR_IDEA)).toBeUndefined();
  });

  it('users deleted here since are not recreated by the rerun, and its report counts them', async () => {
    // Linked to the auth server (who also has user 21 on the budget site, so the auth server keeps them) and not.
    expect((await remove(SITE, 12)).status).toBe(200);
    expect((await remove(SITE, 14)).status).toBe(200);
    expect((await remove(BUDGET_SITE, UNLINKED_VOTER)).status).toBe(200);
    const ballotBefore = await getBallot(SITE, 12);

    const reports = await importOpenStad(source, { sourceKey, dryRun: false });
    expect(kinds(reports, SITE).user).toMatchObject({ copied: 0, unchanged: 3, deletedHere: 2, notCopied: [] });
    expect(kinds(reports, BUDGET_SITE).user).toMatchObject({ copied: 0, unchanged: 1, deletedHere: 1, notCopied: [] });
    expect(formatImportReport(reports.find((r) => r.siteId === SITE)!, false)).toContain('users: 0 copied, 3 already there, 0 not copied, 2 deleted here since an earlier run (not recreated)');
    for (const [siteId, userId] of [[SITE, 12], [SITE, 14], [BUDGET_SITE, UNLINKED_VOTER]] as const) expect(await getUser(siteId, userId)).toBeUndefined();

    // Copied before the delete: as the delete left it (their idea keeps its author id, their counted ballot stays).
    expect((await getIdea(SITE, 41))?.userId).toBe(12);
    expect(await getBallot(SITE, 12)).toEqual(ballotBefore);
    expect(kinds(reports, SITE).ballot.notCopied).toEqual(
      expect.arrayContaining([{ id: 'vote 81', reason: 'its user 12 was deleted here since an earlier run' }]),
    );
    // Not copied before the delete: their idea comes without author, their ballot not at all.
    expect(await getIdea(BUDGET_SITE, THEIR_IDEA)).toMatchObject({ userId: null });
    expect(await getBallot(BUDGET_SITE, UNLINKED_VOTER)).toBeUndefined();
    expect(kinds(reports, BUDGET_SITE).ballot).toMatchObject({
      copied: 1,
      notCopied: [{ id: 'vote 93', reason: `its user ${UNLINKED_VOTER} was deleted here since an earlier run` }],
    });
    for (const siteId of [SITE, BUDGET_SITE]) expect((await verifySiteVotes(siteId)).problems).toEqual([]);
  });

  it('a dry run says the same', async () => {
    const reports = await importOpenStad(source, { sourceKey, dryRun: true });
    expect(kinds(reports, SITE).user).toMatchObject({ copied: 0, deletedHere: 2 });
    expect(kinds(reports, BUDGET_SITE).user).toMatchObject({ copied: 0, deletedHere: 1 });
  });
});
