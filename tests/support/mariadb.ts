/**
 * A throwaway MariaDB (Debian's `mariadb-server`, installed by .ci/run) for the OpenStad import tests:
 * its own data folder, a free port on 127.0.0.1, stopped and removed by `stop()`. Started per test file
 * in `beforeAll`, so a missing server skips, and a slow or failed start fails, only the import tests,
 * never another layer.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from '../../scripts/dynamo-local.ts';

export interface MariaDb {
  host: string;
  port: number;
  user: string;
  password: string;
  stop(): Promise<void>;
}

const SERVER = ['mariadbd', 'mysqld'];
const INSTALLER = ['mariadb-install-db', 'mysql_install_db'];

function findTool(names: readonly string[]): string | undefined {
  for (const name of names) {
    for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
      const path = join(dir, name);
      if (spawnSync('test', ['-x', path]).status === 0) return path;
    }
  }
  return undefined;
}

/** Why the import tests cannot run here, or undefined when MariaDB is installed. */
export function mariaDbMissing(): string | undefined {
  if (findTool(SERVER) && findTool(INSTALLER)) return undefined;
  return 'MariaDB is not installed (apt-get install -y mariadb-server; .ci/run installs it): the OpenStad import tests are skipped';
}

const runningAsRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Initialises a data folder and starts the server on a free port; resolves once it accepts a login.
 * No fixed start-up deadline (a busy machine may take long): the caller's hook timeout bounds it, and
 * a server that exits on the way rejects at once with the end of its error log.
 */
export async function startMariaDb(): Promise<MariaDb> {
  const server = findTool(SERVER);
  const installer = findTool(INSTALLER);
  if (!server || !installer) throw new Error(mariaDbMissing());
  const dir = mkdtempSync(join(tmpdir(), 'openstad-mariadb-'));
  const data = join(dir, 'data');
  const userFlag = runningAsRoot() ? ['--user=root'] : [];
  const install = spawnSync(
    installer,
    ['--no-defaults', `--datadir=${data}`, ...userFlag, '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve'],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);
  }
  const port = await freePort();
  const errorLog = join(dir, 'error.log');
  const child: ChildProcess = spawn(
    server,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mariadb.sock')}`,
      `--pid-file=${join(dir, 'mariadb.pid')}`,
      `--log-error=${errorLog}`,
      ...userFlag,
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=32M',
      '--character-set-server=utf8mb4',
    ],
    { stdio: 'ignore' },
  );
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `mariadbd exited (${code ?? signal}) during start-up: ${tail(errorLog)}`;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const db: MariaDb = { host: '127.0.0.1', port, user: 'root', password: '', stop };
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(exited);
    }
    try {
      const connection = await createConnection({ host: db.host, port, user: db.user, password: db.password });
      await connection.end();
      return db;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-5).join('\n');
  } catch {
    return '(no error log)';
  }
}
