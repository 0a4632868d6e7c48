/**
 * The frame every one-off script against the local stack shares (seed, job, verify-votes, migrate,
 * import-openstad): the arguments first (a usage error exits 2), then the local stack's environment
 * (before any module of lib/ reads it; no stack to use exits 1 saying why), then the site the
 * command names must exist in that table (else exit 2: a typo must not read as "nothing to do"),
 * then the work, whose exit code it returns. Any other failure exits 1 with its message.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NoLocalStackError, useLocalStackEnv } from './local-stack-env.ts';

interface LocalScriptOptions<C> {
  /** The site of this table the command works on, when it names one: it must exist. */
  siteOf?: (command: C) => number | undefined;
}

/** Errors of a DynamoDB that does not answer (the stack stopped, a wrong endpoint). */
const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|socket hang up|TimeoutError|timed out/i;

export async function runLocalScript<C>(
  name: string,
  parse: (argv: string[]) => C,
  work: (command: C) => Promise<number>,
  options: LocalScriptOptions<C> = {},
): Promise<number> {
  let command: C;
  try {
    command = parse(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  let where = 'DynamoDB';
  try {
    const choice = useLocalStackEnv();
    if (choice) {
      where = `DynamoDB at ${choice.endpoint}`;
      console.error(`${name}: table ${process.env.TABLE_NAME} at ${choice.endpoint} (${choice.source})`);
    }
  } catch (err) {
    if (!(err instanceof NoLocalStackError)) throw err;
    console.error(`${name}: ${err.message}`);
    return 1;
  }
  try {
    const siteId = options.siteOf?.(command);
    if (siteId !== undefined) {
      const { getSite } = await import('#lib/store/sites/sites');
      if (!(await getSite(siteId))) {
        console.error(`${name}: there is no site ${siteId} in table ${process.env.TABLE_NAME} (${where}); nothing done`);
        return 2;
      }
    }
    return await work(command);
  } catch (err) {
    const error = err as Error & { code?: string; cause?: { code?: string } };
    if (error.name === 'ResourceNotFoundException') console.error(`${name}: there is no table ${process.env.TABLE_NAME} (${where}): is \`npm start\` running?`);
    else if (UNREACHABLE.test(`${error.name} ${error.code ?? ''} ${error.cause?.code ?? ''} ${error.message}`)) console.error(`${name}: ${where} does not answer: is \`npm start\` still running?`);
    else console.error(`${name} failed: ${error.message}`);
    return 1;
  }
}

/** Runs `main` and exits with its code when the module at `moduleUrl` is the script node was started with. */
export function exitWhenMain(moduleUrl: string, main: () => Promise<number>): void {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== resolve(process.argv[1])) return;
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
