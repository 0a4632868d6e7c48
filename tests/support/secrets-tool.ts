/** `npm run secrets` (scripts/secrets.ts) for the staging stage, run as a process against a local SSM endpoint: what it prints and its exit status. */
import { runProcess } from '#tests/support/run-process';
import { ssmEnvironment, type SsmEndpoint } from '#tests/support/ssm-endpoint';

export async function runSecretsTool(ssm: SsmEndpoint, args: string[]): Promise<{ status: number | null; output: string }> {
  const res = await runProcess(process.execPath, ['--import', 'tsx', 'scripts/secrets.ts', ...args, '--stage', 'staging'], { cwd: process.cwd(), env: { ...process.env, ...ssmEnvironment(ssm) } });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}
