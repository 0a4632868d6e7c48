/**
 * Section `anonymize`: how fast one run of anonymize-ended anonymizes the users of one site whose
 * date has come, against the bench's DynamoDB Local. The run is given a deadline
 * (`remainingMs`, as Lambda's getRemainingTimeInMillis is in lib/jobs/lambda.ts) that leaves it
 * `BENCH_ANONYMIZE_SECONDS` of work; users per minute follow from what it did in that time. The
 * arithmetic that turns it into "100,000 users within 24 hours" is in docs/lifecycle.md, computed
 * from these figures by scripts/bench/markdown.ts.
 */
import { runJob } from '#lib/jobs/index';
import { STOP_BEFORE_DEADLINE_MS } from '#lib/jobs/run';
import { newId, withNewUserId } from '#lib/store/db/ids';
import { putNewSite } from '#lib/store/sites/sites';
import { putNewUser } from '#lib/store/users/users';
import type { AnonymizeResults } from './anonymize-markdown.ts';

const LAMBDA_TIMEOUT_SECONDS = 300;
const RUNS_PER_DAY = 24;

export async function measureAnonymize(users: number, windowSeconds: number, log: (line: string) => void): Promise<AnonymizeResults> {
  const now = new Date();
  const siteId = newId();
  const stamp = now.toISOString();
  const config = { project: { endDate: new Date(now.getTime() - 3 * 86_400_000).toISOString(), projectHasEnded: true }, anonymize: { anonymizeUsersXDaysAfterEndDate: 1 } };
  await putNewSite({ id: siteId, name: 'bench-anonymize', title: 'bench', domain: null, config, createdAt: stamp, updatedAt: stamp });
  log(`  seeding ${users} users…`);
  for (let i = 0; i < users; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, users - i) }, async () => {
        await withNewUserId((id) =>
          putNewUser({ id, siteId, role: 'member', email: `u${id}@example.org`, firstName: 'A', lastName: 'B', nickName: null, extraData: {}, createdAt: stamp, updatedAt: stamp }),
        );
      }),
    );
  }
  const started = performance.now();
  const deadline = started + windowSeconds * 1000 + STOP_BEFORE_DEADLINE_MS;
  const report = await runJob('anonymize-ended', { now, siteId, remainingMs: () => deadline - performance.now() });
  const seconds = (performance.now() - started) / 1000;
  const usersPerMinute = Math.round((report.units / seconds) * 60);
  const lambdaWorkSeconds = LAMBDA_TIMEOUT_SECONDS - STOP_BEFORE_DEADLINE_MS / 1000;
  const usersPerRun = Math.floor((usersPerMinute * lambdaWorkSeconds) / 60);
  return {
    users,
    windowSeconds,
    seconds: Math.round(seconds * 10) / 10,
    anonymized: report.units,
    usersPerMinute,
    lambdaWorkSeconds,
    marginSeconds: STOP_BEFORE_DEADLINE_MS / 1000,
    runsPerDay: RUNS_PER_DAY,
    usersPerRun,
    usersPerDay: usersPerRun * RUNS_PER_DAY,
    hoursFor100k: Math.ceil(100_000 / Math.max(1, usersPerRun)),
  };
}
