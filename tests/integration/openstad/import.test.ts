/**
 * `npm run import-openstad` against a real MariaDB holding an OpenStad v1 database (schema and rows as
 * openstad-api leaves them: tests/support/openstad-db), into a table of its own (kept ids must not meet
 * the other tests' ids and counters). MariaDB is started here, not in a global setup: without it these
 * tests are skipped, and a failed start fails only them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.TABLE_NAME = `openstad-import-${process.pid}-${Date.now()}`;
});

import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mariaDbMissing, startMariaDb, type MariaDb } from '#tests/support/mariadb';
import { BUDGET_SITE, SITE, writeOpenStadDatabase } from '#tests/support/openstad-db/fixture';
import { openSource, type OpenStadSource } from '../../../scripts/import-openstad/source.ts';
import { importOpenStad, formatImportReport, type SiteImportReport } from '../../../scripts/import-openstad/run.ts';
import { importCommand, parseImportCommand } from '../../../scripts/import-openstad.ts';
import { ensureTable } from '#lib/store/db/table';
import { doc, TABLE } from '#lib/store/db/client';
import { getIdea } from '#lib/store/ideas/ideas';
import { getUser } from '#lib/store/users/users';
import { getArgument } from '#lib/store/arguments/arguments';
import { getBallot } from '#lib/store/ballots/ballots';
import { readTallies } from '#lib/store/ideas/tallies';
import { getSite } from '#lib/store/sites/sites';
import { verifySiteVotes } from '#lib/results/verify';
import { sequenceSiteLog } from '#lib/jobs/sequence-log';
import { atWallClock } from '#tests/support/wall-clock';

const missing = mariaDbMissing();
if (missing) console.warn(missing);

async function scanTable(): Promise<string[]> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of out.Items ?? []) items.push(JSON.stringify(item, (_k, v: unknown) => (v instanceof Set ? [...(v as Set<unknown>)].sort() : v)));
    start = out.LastEvaluatedKey;
  } while (start);
  return items.sort();
}

const kind = (reports: SiteImportReport[], siteId: number) => reports.find((r) => r.siteId === siteId)!.kinds;

describe.skipIf(missing !== undefined)('import-openstad from MariaDB', () => {
  let db: MariaDb;
  let source: OpenStadSource;
  const database = 'openstad_api';
  // The key the command derives from its connection settings, so the command test shares the reservation.
  let sourceKey = '';

  beforeAll(async () => {
    await ensureTable();
    db = await startMariaDb();
    sourceKey = `openstad:${db.host}:${db.port}/${database}`;
    await writeOpenStadDatabase(db, database);
    source = await openSource({ host: db.host, port: db.port, user: db.user, password: db.password, database });
  });
  afterAll(async () => {
    await source?.close();
    await db?.stop();
  });

  it('a dry run reports what it would copy and writes nothing', async () => {
    const before = await scanTable();
    const reports = await importOpenStad(source, { sourceKey, dryRun: true });
    expect(reports.map((r) => r.siteId)).toEqual([SITE, BUDGET_SITE]);
    expect(kind(reports, SITE).idea.copied).toBe(3);
    expect(formatImportReport(reports[0]!, true)).toContain('dry run');
    expect(await scanTable()).toEqual(before);
  });

  it('--site copies that site only, keeping its ids', async () => {
    const reports = await importOpenStad(source, { sourceKey, dryRun: false, siteIds: [BUDGET_SITE] });
    expect(reports.map((r) => r.siteId)).toEqual([BUDGET_SITE]);
    expect(await getSite(SITE)).toBeUndefined();
    const site = await getSite(BUDGET_SITE);
    expect(site?.name).toBe('begroot');
    expect((await getIdea(BUDGET_SITE, 51))?.budget).toBe(40000);
    expect(Object.keys((await getBallot(BUDGET_SITE, 21))?.votes ?? {}).sort()).toEqual(['51', '52']);
  });

  it('a run that stops halfway leaves what it wrote, and the next run goes on from there', async () => {
    const failing: OpenStadSource = { ...source, voteRows: () => Promise.reject(new Error('connection lost')) };
    await expect(importOpenStad(failing, { sourceKey, dryRun: false, siteIds: [SITE] })).rejects.toThrow('connection lost');
    expect(await getIdea(SITE, 41)).toBeDefined();
    expect(await getBallot(SITE, 12)).toBeUndefined();
  });

  it('resumed, it copies the rest: users, tags, ideas, arguments, votes, articles and signups, and says what it could not copy and why', async () => {
    const reports = await importOpenStad(source, { sourceKey, dryRun: false });
    const site = kind(reports, SITE);
    expect(kind(reports, BUDGET_SITE).idea).toMatchObject({ copied: 0, unchanged: 2 });
    // Users: the deleted one is not read; `su` is no role here.
    expect(site.user).toMatchObject({ copied: 0, unchanged: 5 });
    const member = await getUser(SITE, 12);
    expect(member).toMatchObject({ role: 'member', externalUserId: '502', authServer: 'https://auth.example.org', nickName: 'Anna', extraData: { buurt: 'Noord' } });
    expect(member?.lastActivityAt).toBe('2023-03-02T10:00:00.000Z');
    expect((await getUser(SITE, 15))?.role).toBe('anonymous');
    // The site: its legacy oauth wrapped in `default`, a setting of the wrong type left out (noted).
    const stored = await getSite(SITE);
    expect((stored?.config['oauth'] as Record<string, unknown>)['default']).toMatchObject({ 'auth-server-url': 'https://auth.example.org' });
    expect((stored?.config['votes'] as Record<string, unknown>)['maxIdeas']).toBeUndefined();
    // Ideas: concepts and role-restricted ones are not published by the move.
    expect(site.idea).toMatchObject({ copied: 0, unchanged: 3 });
    expect(site.idea.notCopied).toEqual(
      expect.arrayContaining([
        { id: 43, reason: expect.stringContaining('concept') },
        { id: 44, reason: expect.stringContaining('visible only to editor') },
      ]),
    );
    const idea = await getIdea(SITE, 41);
    expect(idea).toMatchObject({ id: 41, userId: 12, status: 'OPEN', tags: [31], location: { lat: 52.3731, lng: 4.8922 }, createdAt: '2023-03-01T09:30:00.000Z' });
    expect((idea as unknown as Record<string, unknown>)['publishDate']).toBe('2023-03-01T09:30:00.000Z');
    const orphan = await getIdea(SITE, 46);
    expect(orphan).toMatchObject({ userId: null, location: null });
    // Arguments with their votes (yes only, not the rejected ones), replies kept under their parent.
    expect(await getArgument(SITE, 41, 61)).toMatchObject({ yes: 2, sentiment: 'for' });
    expect(await getArgument(SITE, 41, 62)).toMatchObject({ parentId: 61 });
    expect(await getArgument(SITE, 41, 63)).toMatchObject({ sentiment: 'for' });
    expect(site.argument.notCopied).toEqual([{ id: 64, reason: 'its idea 43 was not copied' }]);
    expect(site.argumentVote.notCopied.map((v) => v.id).sort()).toEqual([73, 74]);
    // Votes: one ballot per voter through the vote-round access pattern; the tallies agree.
    expect(site.ballot.copied).toBe(3);
    const tallies = await readTallies(SITE, [41, 42]);
    expect(tallies.get(41)).toMatchObject({ yes: 2 });
    expect(tallies.get(42)).toMatchObject({ yes: 1, no: 1 });
    expect(site.ballot.notCopied.map((v) => v.reason).sort()).toEqual(['its idea 43 was not copied', 'rejected by a moderator']);
    expect(site.article.unchanged).toBe(1);
    expect(site.signup.unchanged).toBe(2);
    for (const siteId of [SITE, BUDGET_SITE]) expect((await verifySiteVotes(siteId)).problems).toEqual([]);
    // Each ballot came in as a sealed round: no migration is needed, the first checkpoint says the log holds them all.
    const later = new Date(Date.now() + 61_000);
    expect(await atWallClock(later, () => sequenceSiteLog(SITE, later))).toMatchObject({ appended: 3, complete: true, unsealedFound: false });
  });

  it('a rerun changes nothing and reports everything as already there', async () => {
    const before = await scanTable();
    const reports = await importOpenStad(source, { sourceKey, dryRun: false });
    for (const report of reports) for (const entry of Object.values(report.kinds)) expect(entry.copied).toBe(0);
    expect(kind(reports, SITE).idea.unchanged).toBe(3);
    expect(await scanTable()).toEqual(before);
  });

  it('the command prints the report', async () => {
    // A loopback host needs --source; the old key's tail as --source continues the import begun under it.
    expect(() => parseImportCommand(['--database', database, '--host', db.host, '--port', String(db.port)])).toThrow(/loopback address/);
    const command = parseImportCommand(['--database', database, '--host', db.host, '--port', String(db.port), '--source', `${db.host}:${db.port}/${database}`, '--site', String(SITE)]);
    expect(command.sourceKey).toBe(sourceKey);
    const { code, output } = await importCommand(command, db.password);
    expect(code).toBe(0);
    expect(output).toContain('ideas: 0 copied, 3 already there, 2 not copied');
    expect(output).toContain('not copied 43: a concept');
  });

  it('refuses ids this deployment handed out before the import', async () => {
    const reports = await importOpenStad(source, { sourceKey: 'openstad:another-source', dryRun: false, siteIds: [SITE] });
    expect(kind(reports, SITE).site.notCopied).toEqual([{ id: SITE, reason: expect.stringContaining('handed out by this deployment before the import') }]);
  });
});
