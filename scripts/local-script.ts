/**
 * The frame every one-off script against the local stack shares (job, verify-votes, migrate): the
 * arguments first (a usage error exits 2), then the local stack's environment (before any module of
 * lib/ reads it), then the work, whose exit code it returns. A missing table means `npm start` is not
 * running; any other failure exits 1 with its message.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useLocalStackEnv } from './local-stack-env.ts';

export async function runLocalScript<C>(name: string, parse: (argv: string[]) => C, work: (command: C) => Promise<number>): Promise<number> {
  let command: C;
  try {
    command = parse(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  useLocalStackEnv();
  try {
    return await work(command);
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') console.error(`no table ${process.env.TABLE_NAME}: is \`npm start\` running?`);
    else console.error(`${name} failed: ${(err as Error).message}`);
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
