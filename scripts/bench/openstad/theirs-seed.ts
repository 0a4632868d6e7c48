/**
 * OpenStad's side of the world. Sites and votes go through its HTTP API (its own validation and
 * transaction); users, ideas and arguments are bulk-inserted with the `mysql` client, because its API
 * cannot set a user's auth-server token and 10,000 ideas one POST at a time would take longer than the
 * measurement. Rows carry what its models would write (publishDate set: arguments need it).
 */
import { execFileSync } from 'node:child_process';
import { send, jsonOf } from './http.ts';
import { signHs256 } from './hs256.ts';
import type { Settings } from './settings.ts';
import { spread } from '../world.ts';
import { ARGUMENTS_PER_IDEA, DETAIL_ARGUMENTS, LISTER_OFFSET, SEED_ROUND, SMALL_IDEAS, VOTER_OFFSETS, type SiteWorld, type SmallWorld, type World } from './world.ts';

type Theirs = Settings['theirs'];

const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function mysql(t: Theirs, sql: string): string[][] {
  const out = execFileSync(t.mysql[0]!, [...t.mysql.slice(1), '-N', '-B'], { input: sql, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  return out.split('\n').filter(Boolean).map((line) => line.split('\t'));
}

/** Multi-row INSERTs of at most 1,000 rows. */
function insertRows(t: Theirs, table: string, columns: string[], rows: string[][]): void {
  for (let i = 0; i < rows.length; i += 1000) {
    const values = rows.slice(i, i + 1000).map((r) => `(${r.join(',')})`).join(',\n');
    mysql(t, `INSERT INTO ${table} (${columns.join(',')}) VALUES\n${values};`);
  }
}

/** The same vote settings as scripts/bench/world.ts BENCH_CONFIG, in OpenStad's config keys. */
async function createSite(t: Theirs, name: string): Promise<number> {
  const config = {
    allowedDomains: ['bench.example.org'],
    votes: { isActive: true, isViewable: true, voteType: 'count', withExisting: 'replace', minIdeas: 1, maxIdeas: SEED_ROUND, requiredUserRole: 'member' },
    oauth: { default: { 'auth-server-url': t.authServerUrl } },
    cms: { url: t.cmsUrl },
  };
  const answer = await send(t.url, { method: 'POST', path: '/api/site', auth: t.adminToken, body: { name, title: name, domain: `${name}.bench.local`, config }, status: 200 });
  return jsonOf<{ id: number }>(answer).id;
}

/** Users whose auth-server token the stand-in at `authServerUrl` answers for; returns their `X-Authorization` values. */
function createUsers(t: Theirs, siteId: number, count: number, role: string): { id: number; auth: string }[] {
  const [[max]] = mysql(t, 'SELECT COALESCE(MAX(id), 0) FROM users;') as [[string]];
  const ids = Array.from({ length: count }, (_, i) => Number(max) + 1 + i);
  insertRows(
    t,
    'users',
    ['id', 'siteId', 'externalUserId', 'externalAccessToken', 'role', 'complete', 'extraData', 'email', 'firstName', 'lastName', 'nickName', 'lastLogin', 'createdAt', 'updatedAt'],
    ids.map((id) => [String(id), String(siteId), String(id), sqlString(`bench-access-${id}`), sqlString(role), '1', "'{}'", sqlString(`user${id}@example.org`), "'Bench'", sqlString(`User ${id}`), sqlString(`bench${id}`), 'NOW()', 'NOW()', 'NOW()']),
  );
  return ids.map((id) => ({ id, auth: `Bearer ${signHs256({ userId: id }, t.jwtSecret)}` }));
}

function createIdeas(t: Theirs, siteId: number, count: number, authorIds: number[]): number[] {
  const rows = Array.from({ length: count }, (_, n) => {
    // Oldest first, a second apart: creation order is id order, as on our side.
    const at = `NOW() - INTERVAL ${count - n} SECOND`;
    const lat = 52.3 + ((n * 0.6180339887) % 1) * 0.09;
    const lng = 4.8 + ((n * 0.7548776662) % 1) * 0.15;
    return [
      String(siteId), String(authorIds[n % authorIds.length]), at, "'OPEN'",
      sqlString(`Idea number ${n + 1}`),
      sqlString(`A summary about idea ${n + 1}, long enough to pass the default rules`),
      sqlString('A description of some length, as real ideas have. '.repeat(6)),
      sqlString(JSON.stringify({ images: [`https://img.example.org/${n + 1}.png`] })),
      `ST_GeomFromText('POINT(${lat.toFixed(6)} ${lng.toFixed(6)})')`, at, at, at,
    ];
  });
  insertRows(t, 'ideas', ['siteId', 'userId', 'startDate', 'status', 'title', 'summary', 'description', 'extraData', 'location', 'publishDate', 'createdAt', 'updatedAt'], rows);
  return mysql(t, `SELECT id FROM ideas WHERE siteId = ${siteId} ORDER BY id;`).map(([id]) => Number(id));
}

function createArguments(t: Theirs, ideaIds: number[], perIdea: (ideaId: number) => number, authorIds: number[]): void {
  const rows: string[][] = [];
  for (const ideaId of ideaIds) {
    for (let k = 0; k < perIdea(ideaId); k++) {
      rows.push([String(ideaId), String(authorIds[rows.length % authorIds.length]), sqlString(k % 2 ? 'against' : 'for'),
        sqlString(`Argument ${rows.length + 1}: a reason of a realistic length, a sentence or two long.`), 'NOW()', 'NOW()']);
    }
  }
  insertRows(t, 'arguments', ['ideaId', 'userId', 'sentiment', 'description', 'createdAt', 'updatedAt'], rows);
}

async function castRound(t: Theirs, siteId: number, auth: string, ideaIds: number[]): Promise<void> {
  await send(t.url, { method: 'POST', path: `/api/site/${siteId}/vote`, auth, body: ideaIds.map((ideaId) => ({ ideaId, opinion: 'yes' })), status: 200 });
}

async function ideaSite(t: Theirs, ideas: number, detailArguments: number): Promise<SiteWorld & { members: string[] }> {
  const siteId = await createSite(t, `bench-${ideas}-${Date.now()}`);
  // Our seed's moderator round, cast here by an admin: OpenStad v1 refuses a moderator's vote.
  const [admin] = createUsers(t, siteId, 1, 'admin');
  const members = createUsers(t, siteId, 8, 'member');
  const lister = members[3]!;
  const authors = createUsers(t, siteId, Math.min(100, ideas), 'member').map((a) => a.id);
  const ideaIds = createIdeas(t, siteId, ideas, authors);
  const detail = ideaIds[1]!;
  createArguments(t, ideaIds, (id) => (id === detail ? detailArguments : ARGUMENTS_PER_IDEA), authors);
  await castRound(t, siteId, admin!.auth, spread(ideaIds, SEED_ROUND));
  for (const [i, offset] of VOTER_OFFSETS.entries()) await castRound(t, siteId, members[4 + i]!.auth, spread(ideaIds, SEED_ROUND, offset));
  await castRound(t, siteId, lister.auth, spread(ideaIds, SEED_ROUND, LISTER_OFFSET));
  return { siteId, ideaIds, lister: lister.auth, members: members.slice(0, 3).map((m) => m.auth) };
}

export async function seedTheirs(t: Theirs, largeIdeas: number): Promise<World> {
  const small = await ideaSite(t, SMALL_IDEAS, DETAIL_ARGUMENTS);
  const large = await ideaSite(t, largeIdeas, ARGUMENTS_PER_IDEA);
  const [roundVoter, singleVoter, arguer] = small.members as [string, string, string];
  const smallWorld: SmallWorld = { siteId: small.siteId, ideaIds: small.ideaIds, lister: small.lister, detailIdeaId: small.ideaIds[1]!, roundVoter, singleVoter, arguer };
  return { small: smallWorld, large: { siteId: large.siteId, ideaIds: large.ideaIds, lister: large.lister } };
}
