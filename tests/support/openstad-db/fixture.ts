/**
 * An OpenStad v1 database as a city's would look: the schema of ./schema.ts and rows written the way
 * openstad-api writes them (UTC DATETIMEs, JSON as text, locations as POINT(lat lng), paranoid deletes,
 * concept ideas without publishDate, moderator-rejected votes with checked = 0).
 */
import { createConnection } from 'mysql2/promise';
import type { MariaDb } from '../mariadb.ts';
import { OPENSTAD_TABLES } from './schema.ts';

export const SITE = 1;
export const BUDGET_SITE = 2;
const T0 = '2023-03-01 09:30:00';
const T1 = '2023-03-02 10:00:00';

const siteConfig = {
  allowedDomains: ['openstad.example.org'],
  // The legacy flat oauth settings OpenStad still accepts (its parseConfig wraps them in `default`).
  oauth: {
    'auth-server-url': 'https://auth.example.org',
    'auth-client-id': 'city',
    'auth-client-secret': 'city-secret',
  },
  votes: { isViewable: true, voteType: 'likes', requiredUserRole: 'member', maxIdeas: 'lots' },
  ideas: { canAddNewIdeas: true, minimumYesVotes: 50 },
  polls: { canAddPolls: false },
};

const budgetConfig = {
  oauth: { default: { 'auth-server-url': 'https://auth.example.org', 'auth-client-id': 'b', 'auth-client-secret': 's' } },
  votes: { isViewable: false, voteType: 'budgeting', maxBudget: 100000, minBudget: 0, withExisting: 'replace' },
};

type Value = string | number | null;
const insert = (table: string, rows: Record<string, Value>[]) =>
  rows.map((row) => ({
    sql: `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map((k) => (k === 'location' ? 'ST_GeomFromText(?)' : '?')).join(', ')})`,
    values: Object.values(row),
  }));

const stamps = (deleted: string | null = null) => ({ createdAt: T0, updatedAt: T1, deletedAt: deleted });

export async function writeOpenStadDatabase(db: MariaDb, database: string): Promise<void> {
  const admin = await createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, multipleStatements: false });
  await admin.query(`CREATE DATABASE ${database} CHARACTER SET utf8`);
  await admin.changeUser({ database });
  for (const ddl of OPENSTAD_TABLES) await admin.query(ddl);
  const json = (value: unknown) => JSON.stringify(value);
  const statements = [
    ...insert('sites', [
      { id: SITE, name: 'stad', title: 'Plannen voor de stad', domain: 'openstad.example.org', config: json(siteConfig), hostStatus: '{}', ...stamps() },
      { id: BUDGET_SITE, name: 'begroot', title: 'Begroten', domain: 'begroot.example.org', config: json(budgetConfig), hostStatus: '{}', ...stamps() },
      { id: 3, name: 'weg', title: 'Verwijderd', domain: 'weg.example.org', config: '{}', hostStatus: '{}', ...stamps(T1) },
    ]),
    ...insert('users', [
      { id: 11, siteId: SITE, externalUserId: 501, role: 'admin', extraData: '{}', email: 'admin@example.org', firstName: 'Ada', lastName: 'Admin', ...stamps() },
      { id: 12, siteId: SITE, externalUserId: 502, role: 'member', extraData: json({ buurt: 'Noord' }), email: 'a@example.org', nickName: 'Anna', ...stamps(), lastLogin: T1 },
      { id: 13, siteId: SITE, externalUserId: 503, role: 'member', extraData: '{}', email: 'b@example.org', firstName: 'Bert', ...stamps() },
      { id: 14, siteId: SITE, externalUserId: null, role: 'anonymous', extraData: '{}', email: null, ...stamps() },
      { id: 15, siteId: SITE, externalUserId: 505, role: 'su', extraData: '{}', email: 'su@example.org', ...stamps() },
      { id: 16, siteId: SITE, externalUserId: 506, role: 'member', extraData: '{}', email: 'gone@example.org', ...stamps(T1) },
      { id: 21, siteId: BUDGET_SITE, externalUserId: 502, role: 'member', extraData: '{}', email: 'a@example.org', ...stamps() },
    ]),
    ...insert('tags', [
      { id: 31, siteId: SITE, name: 'Groen', type: 'theme', extraData: null, ...stamps() },
      { id: 32, siteId: SITE, name: 'Verkeer', type: 'theme', extraData: '{}', ...stamps() },
      { id: 33, siteId: SITE, name: 'Oud', type: null, extraData: null, ...stamps(T1) },
    ]),
    ...insert('ideas', [
      idea(41, SITE, 12, { status: 'OPEN', location: 'POINT(52.3731 4.8922)', publishDate: T0, extraData: json({ theme: 'Groen' }) }),
      idea(42, SITE, 13, { status: 'ACCEPTED', budget: 25000, publishDate: T1 }),
      idea(43, SITE, 12, { status: 'OPEN', publishDate: null }),
      idea(44, SITE, 12, { status: 'OPEN', publishDate: T0, viewableByRole: 'editor' }),
      idea(45, SITE, 12, { status: 'OPEN', publishDate: T0, deletedAt: T1 }),
      idea(46, SITE, 99, { status: 'CLOSED', publishDate: T0, location: 'POINT(123.5 4.9)' }),
      idea(51, BUDGET_SITE, 21, { status: 'OPEN', budget: 40000, publishDate: T0 }),
      idea(52, BUDGET_SITE, 21, { status: 'OPEN', budget: 30000, publishDate: T0 }),
    ]),
    ...insert('ideaTags', [
      { ideaId: 41, tagId: 31, createdAt: T0, updatedAt: T0 },
      { ideaId: 41, tagId: 33, createdAt: T0, updatedAt: T0 },
      { ideaId: 42, tagId: 32, createdAt: T0, updatedAt: T0 },
    ]),
    ...insert('arguments', [
      { id: 61, ideaId: 41, userId: 13, parentId: null, sentiment: 'for', description: 'Meer groen maakt de buurt koeler in de zomer.', ...stamps() },
      { id: 62, ideaId: 41, userId: 12, parentId: 61, sentiment: 'for', description: 'Eens, en het is goed voor de vogels ook.', ...stamps() },
      { id: 63, ideaId: 41, userId: 11, parentId: null, sentiment: 'no sentiment', description: 'Hoe wordt het onderhoud betaald, eigenlijk?', ...stamps() },
      { id: 64, ideaId: 43, userId: 13, parentId: null, sentiment: 'against', description: 'Dit concept is nog niet af, lijkt me.', ...stamps() },
      { id: 65, ideaId: 42, userId: 13, parentId: null, sentiment: 'against', description: 'Te duur voor wat het oplevert, denk ik.', ...stamps() },
    ]),
    ...insert('argument_votes', [
      { id: 71, argumentId: 61, userId: 12, opinion: 'yes', checked: null, ...stamps() },
      { id: 72, argumentId: 61, userId: 11, opinion: 'yes', checked: 1, ...stamps() },
      { id: 73, argumentId: 61, userId: 13, opinion: 'no', checked: null, ...stamps() },
      { id: 74, argumentId: 65, userId: 12, opinion: 'yes', checked: 0, ...stamps() },
    ]),
    ...insert('votes', [
      { id: 81, ideaId: 41, userId: 12, opinion: 'yes', checked: null, ...stamps() },
      { id: 82, ideaId: 41, userId: 13, opinion: 'yes', checked: null, ...stamps() },
      { id: 83, ideaId: 42, userId: 13, opinion: 'no', checked: null, createdAt: T1, updatedAt: T1, deletedAt: null },
      { id: 84, ideaId: 42, userId: 14, opinion: 'yes', checked: 1, ...stamps() },
      { id: 85, ideaId: 42, userId: 12, opinion: 'yes', checked: 0, ...stamps() },
      { id: 86, ideaId: 43, userId: 11, opinion: 'yes', checked: null, ...stamps() },
      { id: 87, ideaId: 41, userId: 11, opinion: 'yes', checked: null, ...stamps(T1) },
      { id: 91, ideaId: 51, userId: 21, opinion: 'yes', checked: null, ...stamps() },
      { id: 92, ideaId: 52, userId: 21, opinion: 'yes', checked: null, ...stamps() },
    ]),
    ...insert('articles', [
      { id: 101, siteId: SITE, userId: 11, startDate: T0, status: 'OPEN', title: 'Nieuws over de plannen', summary: 'De stemronde begint.', description: 'De stemronde begint volgende week.', extraData: '{}', ...stamps() },
    ]),
    ...insert('newslettersignups', [
      { id: 111, siteId: SITE, email: 'lezer@example.org', firstName: 'Lees', confirmed: 1, confirmToken: null, ...stamps() },
      { id: 112, siteId: SITE, email: 'nieuw@example.org', firstName: null, confirmed: 0, confirmToken: 'abc123', ...stamps() },
    ]),
  ];
  for (const { sql, values } of statements) await admin.query(sql, values);
  await admin.end();
}

function idea(id: number, siteId: number, userId: number, fields: Record<string, Value>): Record<string, Value> {
  return {
    id,
    siteId,
    userId,
    startDate: T0,
    title: `Plan ${id} voor de buurt`,
    summary: `Samenvatting van plan ${id} in een paar woorden.`,
    description: `Beschrijving van plan ${id}. `.repeat(8),
    extraData: '{}',
    ...stamps(),
    ...fields,
  };
}
