import { runCaption, type SectionRun } from './section-run.ts';

/** The anonymize section's figures (scripts/bench/anonymize.ts) and their arithmetic, as docs/lifecycle.md shows them. */
export interface AnonymizeResults {
  /** Users on the site before the run (more than it can do in the window). */
  users: number;
  /** The run's working window, seconds (the deadline minus STOP_BEFORE_DEADLINE_MS). */
  windowSeconds: number;
  /** Wall time of the run, seconds. */
  seconds: number;
  anonymized: number;
  usersPerMinute: number;
  /** A deployed run: the job functions' timeout (functions/jobs/functions.yml) minus the margin. */
  lambdaWorkSeconds: number;
  /** What a run keeps free before its deadline (lib/jobs/run.ts STOP_BEFORE_DEADLINE_MS). */
  marginSeconds: number;
  runsPerDay: number;
  usersPerRun: number;
  usersPerDay: number;
  /** Runs, and so hours, for 100,000 users of one site. */
  hoursFor100k: number;
}

/** docs/lifecycle.md's block: the figure and the arithmetic, from bench/results.json. */
export function anonymizeMarkdown(a: AnonymizeResults, run: SectionRun): string {
  return [
    runCaption(run, 'anonymize'),
    '',
    `Measured (\`npm run bench\`, section \`anonymize\`, against DynamoDB Local on this machine): one run of`,
    `anonymize-ended given a ${a.windowSeconds} s window anonymized ${a.anonymized} of ${a.users} users of one site in ${a.seconds} s:`,
    `**${a.usersPerMinute} users per minute**.`,
    '',
    `- a deployed run works ${a.lambdaWorkSeconds} s (the 300 s timeout less the ${a.marginSeconds} s margin): ${a.usersPerMinute} × ${a.lambdaWorkSeconds} / 60 = **${a.usersPerRun} users per run**;`,
    `- ${a.runsPerDay} hourly runs a day: ${a.usersPerRun} × ${a.runsPerDay} = **${a.usersPerDay} users a day**;`,
    `- 100,000 users of one site: ⌈100,000 / ${a.usersPerRun}⌉ = **${a.hoursFor100k} runs, so ${a.hoursFor100k} hours** after their date${a.hoursFor100k <= 24 ? ' (within 24 hours)' : ' (more than 24 hours: see below)'}.`,
  ].join('\n');
}
