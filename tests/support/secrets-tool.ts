/** `npm run secrets` (scripts/secrets.ts) for the staging stage, run as a process against a local SSM endpoint: what it prints and its exit status. */
import { afterAll, beforeAll } from 'vitest';
import { runProcess } from '#tests/support/run-process';
import { ssmEnvironment, startSsmEndpoint, type SsmEndpoint } from '#tests/support/ssm-endpoint';

export async function runSecretsTool(ssm: SsmEndpoint, args: string[]): Promise<{ status: number | null; output: string }> {
  const res = await runProcess(process.execPath, ['--import', 'tsx', 'scripts/secrets.ts', ...args, '--stage', 'staging'], { cwd: process.cwd(), env: { ...process.env, ...ssmEnvironment(ssm) } });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

/** A local SSM endpoint for one test file (started before its tests, closed after them) and the tool run against it. */
export function secretsToolOnLocalSsm(): { readonly ssm: SsmEndpoint; secrets(args: string[]): ReturnType<typeof runSecretsTool> } {
  let ssm: SsmEndpoint | undefined;
  beforeAll(async () => {
    ssm = await startSsmEndpoint();
  });
  afterAll(async () => ssm?.close());
  const started = () => {
    if (!ssm) throw new Error('the local SSM endpoint starts in beforeAll: use it inside a test');
    return ssm;
  };
  return {
    get ssm() {
      return started();
    },
    secrets: (args) => runSecretsTool(started(), args),
  };
}
