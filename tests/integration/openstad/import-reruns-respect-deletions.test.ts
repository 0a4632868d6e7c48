/**
 * A person deleted or anonymized here does not come back through a rerun of the OpenStad import (a
 * rerun after a crash, a delete in the middle of a run, a user copied before imports wrote id claims,
 * a site deleted here), with their name, e-mail, votes or newsletter signup. A signup's OpenStad
 * `externalUserId` (an auth-server id) links it to the site user with that auth-server id, never to
 * the site user whose id it happens to equal. Also: ids the import may not keep (10^9 and up, INT max,
 * 0, negative), and a second source reusing the same ids (tenant isolation).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `openstad-reruns-deletions-${process.pid}-${Date.now()}`;
});

// The auth server is not part of these tests: its user delete (called when no other site still has
// the person) answers as done.
vi.mock('#lib/auth-server/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#lib/auth-server/client')>()),
  deleteUser: vi.fn(async () => undefined),
}));

import { createConnection, type Connection } from 'mysql2/promise';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mariaDbMissing, startMariaDb, type MariaDb } from '#tests/support/mariadb';
import { BUDGET_SITE, SITE, writeOpenStadDatabase } from '#tests/support/openstad-db/fixture';
import { invoke } from '#tests/support/invoke';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { openSource, type OpenStadSource } from '../../../scripts/import-openstad/source.ts';
import { importOpenStad, type SiteImportReport } from '../../../scripts/import-openstad/run.ts';
import { handler as deleteUserHandler } from '../../../functions/users/delete.ts';
import { handler as doAnonymize } from '../../../functions/users/do-anonymize.ts';
import { handler as deleteSiteHandler } from '../../../functions/sites/delete.ts';
import { ensureTable } from '#lib/store/db/table';
import { doc, TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';
import { importKeys } from '#lib/store/imports/keys';
import { getUser } from '#lib/store/users/users';
import { getSignup } from '#lib/store/newsletter/newsletter';
import { getBallot } from '#lib/store/ballots/ballots';
import { getIdea } from '#lib/store/ideas/ideas';
import { getSite } from '#lib/store/sites/sites';
import { verifySiteVotes } from '#lib/results/verify';

const missing = mariaDbMissing();
if (missing) console.warn(missing);

const database = 'openstad_reruns';
const otherDatabase = 'openstad_other_city';
const sourceKey = 'openstad:reruns';
const T0 = '2023-03-01 09:30:00';

/** Anna (user 12, auth-server user 502)'s newsletter signup on SITE: the import links it to user 12. */
const ANNA_SIGNUP = 113;
/** A signup whose OpenStad externalUserId (an auth-server id) equals the site-user id of another person (Ada, 11). */
const OTHER_PERSON_SIGNUP = 114;
/** Bert's (user 13, auth-server user 503) signup under another e-mail address: linked to user 13. */
const BERT_SIGNUP = 115;
/** A signup by auth-server user 777, whom only a user of the budget site (22) has: left unlinked. */
const OTHER_SITE_PERSON_SIGNUP = 116;
/** A user without an auth-server link, copied "before imports wrote claims" (its claim removed by hand). */
const LEGACY = 17;
/** Ids no import keeps, and ids OpenStad's id > 0 paging never reads. */
const BILLION = 1_000_000_000;
const INT_MAX = 2_147_483_647;

const kinds = (reports: SiteImportReport[], siteId: number) => reports.find((r) => r.siteId === siteId)!.kinds;
const removeUser = (siteId: number, userId: number) => invoke(deleteUserHandler, { method: 'DELETE', params: { siteId, userId }, token: SERVICE_TOKEN });
const anonymize = (siteId: number, userId: number) => invoke(doAnonymize, { method: 'PUT', params: { siteId, userId }, token: SERVICE_TOKEN });
const claimOf = async (userId: number) => (await doc.send(new GetCommand({ TableName: TABLE, Key: userKeys.userIdClaim(userId), ConsistentRead: true }))).Item;

async function openVoting(connection: Connection, siteId: number): Promise<void> {
  const [rows] = await connection.query('SELECT config FROM sites WHERE id = ?', [siteId]);
  const raw = (rows as { config: unknown }[])[0]!.config;
  const config = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { votes: Record<string, unknown> };
  config.votes.isActive = true;
  await connection.query('UPDATE sites SET config = ? WHERE id = ?', [JSON.stringify(config), siteId]);
}

describe.skipIf(missing !== undefined)('import-openstad: reruns respect deletions and anonymizations here', () => {
  let db: MariaDb;
  let source: OpenStadSource;
  const failAt = (table: 'votes' | 'never'): OpenStadSource => ({
    ...source,
    voteRows: (siteId, after) => (table === 'votes' ? Promise.reject(new Error('connection lost')) : source.voteRows(siteId, after)),
  });

  beforeAll(async () => {
    await ensureTable();
    db = await startMariaDb();
    await writeOpenStadDatabase(db, database);
    const connection = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database });
    // Voting is open on both sites: an anonymization removes the person's votes there.
    await openVoting(connection, SITE);
    await openVoting(connection, BUDGET_SITE);
    const user = (id: number, email: string, firstName: string) =>
      connection.query('INSERT INTO users (id, siteId, externalUserId, role, extraData, email, firstName, createdAt, updatedAt) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)', [
        id, SITE, 'member', '{}', email, firstName, T0, T0,
      ]);
    // An id of 0 as written, not the next AUTO_INCREMENT value.
    await connection.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')");
    await user(0, 'zero@example.org', 'Nul');
    await user(-5, 'negative@example.org', 'Min');
    await user(LEGACY, 'legacy@example.org', 'Lea');
    await user(BILLION, 'billion@example.org', 'Bil');
    await user(INT_MAX, 'intmax@example.org', 'Max');
    await connection.query('INSERT INTO votes (id, ideaId, userId, opinion, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)', [
      94, 42, BILLION, 'yes', T0, T0, 95, 42, INT_MAX, 'yes', T0, T0,
    ]);
    // As openstad-api writes it: `externalUserId` is the auth-server id of the person signing up.
    await connection.query(
      'INSERT INTO newslettersignups (id, siteId, email, firstName, lastName, externalUserId, confirmed, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [ANNA_SIGNUP, SITE, 'anna@example.org', 'Anna', 'Achternaam', 502, 1, T0, T0],
    );
    await connection.query(
      'INSERT INTO newslettersignups (id, siteId, email, firstName, lastName, externalUserId, confirmed, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [BERT_SIGNUP, SITE, 'bert@example.org', 'Bert', null, 503, 1, T0, T0, OTHER_SITE_PERSON_SIGNUP, SITE, 'zeven@example.org', 'Zeven', null, 777, 1, T0, T0],
    );
    await connection.query('INSERT INTO users (id, siteId, externalUserId, role, extraData, email, firstName, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      22, BUDGET_SITE, 777, 'member', '{}', 'zeven@example.org', 'Zeven', T0, T0,
    ]);
    // As openstad-api writes it (newsletterSignup route: `externalUserId: req.user.externalUserId`): the
    // AUTH-SERVER id of the person who signed up (here auth-server user 11, whose site user is not 11).
    await connection.query(
      'INSERT INTO newslettersignups (id, siteId, email, firstName, lastName, externalUserId, confirmed, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [OTHER_PERSON_SIGNUP, SITE, 'iemand@example.org', 'Iemand', 'Anders', 11, 1, T0, T0],
    );
    await connection.end();
    await writeOpenStadDatabase(db, otherDatabase);
    source = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database });
  });
  afterAll(async () => {
    await source?.close();
    await db?.stop();
  });

  it('ids the import may not keep (10^9, INT max) are reported, not copied, and do not crash or raise the reservation; 0 and negative ids are never read', async () => {
    const reports = await importOpenStad(source, { sourceKey, dryRun: true, siteIds: [SITE] });
    const user = kinds(reports, SITE).user;
    expect(user.notCopied).toEqual([
      { id: BILLION, reason: `id ${BILLION} is 10^9 or more: no import keeps such an id (new ids here start above it)` },
      { id: INT_MAX, reason: `id ${INT_MAX} is 10^9 or more: no import keeps such an id (new ids here start above it)` },
    ]);
    expect(kinds(reports, SITE).ballot.notCopied).toEqual(
      expect.arrayContaining([
        { id: 'vote 94', reason: `its user ${BILLION} was not copied` },
        { id: 'vote 95', reason: `its user ${INT_MAX} was not copied` },
      ]),
    );
  });

  it('a first run copies users, ideas and signups of the site, then loses the connection before the votes', async () => {
    await expect(importOpenStad(failAt('votes'), { sourceKey, dryRun: false, siteIds: [SITE] })).rejects.toThrow('connection lost');
    expect(await getUser(SITE, 12)).toBeDefined();
    expect(await getSignup(SITE, ANNA_SIGNUP)).toMatchObject({ email: 'anna@example.org', userId: 12 });
    expect(await getBallot(SITE, 12)).toBeUndefined();
    expect(await getUser(SITE, BILLION)).toBeUndefined();
  });

  it("a signup's OpenStad externalUserId (an auth-server id) links it to that person's site user, never to the site user with that id, nor to another site's", async () => {
    // Ada (site user 11, auth-server user 501) did not sign up; auth-server user 11 did, and has no user here.
    expect(await getSignup(SITE, OTHER_PERSON_SIGNUP)).toMatchObject({ email: 'iemand@example.org' });
    expect((await getSignup(SITE, OTHER_PERSON_SIGNUP))?.userId).toBeUndefined();
    expect(await getSignup(SITE, BERT_SIGNUP)).toMatchObject({ email: 'bert@example.org', userId: 13 });
    // Auth-server user 777 is a user of the budget site only: the signup on SITE stays unlinked.
    expect(await getSignup(SITE, OTHER_SITE_PERSON_SIGNUP)).toMatchObject({ email: 'zeven@example.org' });
    expect((await getSignup(SITE, OTHER_SITE_PERSON_SIGNUP))?.userId).toBeUndefined();
  });

  it('anonymized here, then a rerun: the newsletter signup the anonymization deleted stays deleted, and no vote is written under the anonymized user', async () => {
    const answer = await anonymize(SITE, 12);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await getSignup(SITE, ANNA_SIGNUP)).toBeUndefined();
    expect((await getUser(SITE, 12))?.email).toBeNull();

    const reports = await importOpenStad(source, { sourceKey, dryRun: false, siteIds: [SITE] });
    // The anonymization deleted this signup (Anna's e-mail and name): a rerun does not bring it back.
    expect(await getSignup(SITE, ANNA_SIGNUP)).toBeUndefined();
    expect(kinds(reports, SITE).signup.notCopied).toContainEqual({ id: ANNA_SIGNUP, reason: 'the signup of user 12, who was anonymized here' });
    // The anonymization (voting open) leaves the person no votes: the rerun does not cast theirs.
    expect(await getBallot(SITE, 12)).toBeUndefined();
    expect(kinds(reports, SITE).ballot.notCopied).toContainEqual({ id: 'vote 81', reason: 'its user 12 was anonymized here' });
    expect((await getUser(SITE, 12))?.email).toBeNull();
    // What anonymization keeps stays: their idea contributions under their (anonymized) id.
    expect(kinds(reports, SITE).user.unchanged).toBeGreaterThanOrEqual(1);
  });

  it('a user copied before imports wrote claims (no claim, no link, no record of the finished users), deleted here, is not recreated by a rerun', async () => {
    expect(await getUser(SITE, LEGACY)).toMatchObject({ email: 'legacy@example.org' });
    // The state an import before claims left: the imported user without its id's claim, and no record
    // that the import went through the site's users.
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: userKeys.userIdClaim(LEGACY) }));
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: importKeys.usersCopied(sourceKey, SITE) }));
    expect((await removeUser(SITE, LEGACY)).status).toBe(200);
    expect(await getUser(SITE, LEGACY)).toBeUndefined();

    // The tags and ideas this source's import copied to the site show it went past every user.
    const reports = await importOpenStad(source, { sourceKey, dryRun: false, siteIds: [SITE] });
    expect(await getUser(SITE, LEGACY)).toBeUndefined();
    expect(kinds(reports, SITE).user.deletedHere).toBeGreaterThanOrEqual(1);
    expect(kinds(reports, SITE).signup.copied).toBe(0);
  });

  it('a user deleted while a run is under way (after their page of users, before the votes) gets no ballot written under them', async () => {
    const deletingMidRun: OpenStadSource = {
      ...source,
      voteRows: async (siteId, after) => {
        if (siteId === BUDGET_SITE && after.userId === 0 && after.id === 0) {
          const answer = await removeUser(BUDGET_SITE, 21);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        }
        return source.voteRows(siteId, after);
      },
    };
    const reports = await importOpenStad(deletingMidRun, { sourceKey, dryRun: false, siteIds: [BUDGET_SITE] });
    expect(await getUser(BUDGET_SITE, 21)).toBeUndefined();
    expect(await getBallot(BUDGET_SITE, 21)).toBeUndefined();
    expect(kinds(reports, BUDGET_SITE).ballot.notCopied).toContainEqual({ id: 21, reason: 'its user 21 was deleted or anonymized here while the import ran' });
    expect((await verifySiteVotes(BUDGET_SITE)).problems).toEqual([]);
  });

  it('a user deleted on one site is still imported on another site of the same database (the deletion is per site)', async () => {
    // User 21 (budget site) is deleted; user 11 of SITE (another person) and 13 stay.
    expect(await getUser(SITE, 11)).toBeDefined();
    expect(await getUser(SITE, 13)).toBeDefined();
  });

  it('another OpenStad database with the same ids imported into this deployment reaches none of the first one (tenant isolation)', async () => {
    const other = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database: otherDatabase });
    try {
      const before = await getUser(SITE, 13);
      const reports = await importOpenStad(other, { sourceKey: 'openstad:other-city', dryRun: false });
      for (const report of reports) {
        expect(report.kinds.site.copied).toBe(0);
        expect(report.kinds.user.deletedHere).toBe(0);
      }
      expect(await getUser(SITE, 13)).toEqual(before);
      // Users deleted from the first city stay deleted: the other city's user 21 did not come in.
      expect(await getUser(BUDGET_SITE, 21)).toBeUndefined();
      expect(await getUser(SITE, 12)).toMatchObject({ email: null });
    } finally {
      await other.close();
    }
  });

  it('the site is deleted here (forced, with its users), then a rerun: the site is refused, and nothing of it comes back', async () => {
    const forced = await invoke(deleteSiteHandler, { method: 'DELETE', params: { siteId: SITE }, query: { force: '1' }, token: SERVICE_TOKEN });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect(await getSite(SITE)).toBeUndefined();
    expect(await claimOf(12)).toBeDefined();

    const reports = await importOpenStad(source, { sourceKey, dryRun: false, siteIds: [SITE] });
    expect(kinds(reports, SITE).site.notCopied).toEqual([{ id: SITE, reason: expect.stringMatching(/^the site was deleted here \(.+\): it is not recreated/) }]);
    expect(kinds(reports, SITE).user.copied).toBe(0);
    expect(await getSite(SITE)).toBeUndefined();
    expect(await getSignup(SITE, ANNA_SIGNUP)).toBeUndefined();
    expect(await getSignup(SITE, BERT_SIGNUP)).toBeUndefined();
    expect(await getUser(SITE, 12)).toBeUndefined();
    expect(await getUser(SITE, 13)).toBeUndefined();
    expect(await getIdea(SITE, 41)).toBeUndefined();
  });
});
