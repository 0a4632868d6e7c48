/**
 * Reading an OpenStad v1 database (MySQL or MariaDB, its tables as openstad-api's models and migrations
 * leave them; tests/support/openstad-db/schema.ts). Rows come in id order, a bounded batch at a time
 * (keyset paging), so a site of any size is read in constant memory per batch. Only live rows are read
 * (`deletedAt IS NULL`: OpenStad deletes by setting it). Dates are read as the UTC strings sequelize
 * wrote; JSON columns arrive as text on MariaDB and as values on MySQL, and are parsed either way.
 */
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';

interface SourceOptions {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

const BATCH = 500;

export interface OpenStadSource {
  sites(siteIds: readonly number[] | undefined): Promise<Row[]>;
  /** Rows of a site-scoped table (`siteId` column) in id order, after `afterId`. */
  siteRows(table: 'users' | 'ideas' | 'articles' | 'newslettersignups' | 'tags', siteId: number, afterId: number): Promise<Row[]>;
  /** Arguments of a site's ideas, in id order (parents before their replies). */
  argumentRows(siteId: number, afterId: number): Promise<Row[]>;
  /** Live argument votes of a site's arguments. */
  argumentVoteRows(siteId: number, afterId: number): Promise<Row[]>;
  /** Live votes on a site's ideas, in (userId, id) order: one user's votes arrive together. */
  voteRows(siteId: number, after: { userId: number; id: number }): Promise<Row[]>;
  ideaTagRows(siteId: number): Promise<Row[]>;
  /**
   * The highest id below `below` of each table over the whole database (deleted rows too): what the
   * import reserves. Ids at or above `below` are never kept, so they must not raise the reservation.
   */
  maxIds(below: number): Promise<Record<IdTable, number>>;
  close(): Promise<void>;
}

export type IdTable = 'sites' | 'users' | 'ideas' | 'articles' | 'arguments' | 'newslettersignups' | 'tags';
export type Row = Record<string, unknown>;

export async function openSource(options: SourceOptions): Promise<OpenStadSource> {
  const connection: Connection = await createConnection({
    host: options.host,
    port: options.port,
    user: options.user,
    password: options.password,
    database: options.database,
    // sequelize wrote DATETIMEs in UTC; read them as written.
    dateStrings: true,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4',
  });
  const rows = async (sql: string, params: unknown[]) => {
    const [result] = await connection.query<RowDataPacket[]>(sql, params);
    return result as Row[];
  };
  // Locations as text ("POINT(lat lng)"): the same on MySQL and MariaDB, whatever the driver makes of WKB.
  const columns = (table: string) => (table === 'ideas' || table === 'articles' ? '*, ST_AsText(location) AS locationText' : '*');
  return {
    sites: (siteIds) =>
      siteIds && siteIds.length > 0
        ? rows('SELECT * FROM sites WHERE deletedAt IS NULL AND id IN (?) ORDER BY id', [siteIds])
        : rows('SELECT * FROM sites WHERE deletedAt IS NULL ORDER BY id', []),
    siteRows: (table, siteId, afterId) =>
      rows(`SELECT ${columns(table)} FROM ${table} WHERE deletedAt IS NULL AND siteId = ? AND id > ? ORDER BY id LIMIT ${BATCH}`, [siteId, afterId]),
    argumentRows: (siteId, afterId) =>
      rows(
        `SELECT a.* FROM arguments a JOIN ideas i ON i.id = a.ideaId
         WHERE a.deletedAt IS NULL AND i.siteId = ? AND a.id > ? ORDER BY a.id LIMIT ${BATCH}`,
        [siteId, afterId],
      ),
    argumentVoteRows: (siteId, afterId) =>
      rows(
        `SELECT v.* FROM argument_votes v JOIN arguments a ON a.id = v.argumentId JOIN ideas i ON i.id = a.ideaId
         WHERE v.deletedAt IS NULL AND i.siteId = ? AND v.id > ? ORDER BY v.id LIMIT ${BATCH}`,
        [siteId, afterId],
      ),
    voteRows: (siteId, after) =>
      rows(
        `SELECT v.* FROM votes v JOIN ideas i ON i.id = v.ideaId
         WHERE v.deletedAt IS NULL AND i.siteId = ? AND (v.userId > ? OR (v.userId = ? AND v.id > ?))
         ORDER BY v.userId, v.id LIMIT ${BATCH}`,
        [siteId, after.userId, after.userId, after.id],
      ),
    ideaTagRows: (siteId) =>
      rows('SELECT t.ideaId, t.tagId FROM ideaTags t JOIN ideas i ON i.id = t.ideaId WHERE i.siteId = ? ORDER BY t.ideaId, t.tagId', [siteId]),
    async maxIds(below) {
      const tables: IdTable[] = ['sites', 'users', 'ideas', 'articles', 'arguments', 'newslettersignups', 'tags'];
      const out = {} as Record<IdTable, number>;
      for (const table of tables) {
        const [row] = await rows(`SELECT COALESCE(MAX(id), 0) AS max FROM ${table} WHERE id < ?`, [below]);
        out[table] = Number(row?.['max'] ?? 0);
      }
      return out;
    },
    close: () => connection.end(),
  };
}
