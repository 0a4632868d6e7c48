/**
 * The scheduled jobs by name (CONTRACT "Decided details, lifecycle"). The Lambda of each job
 * (functions/jobs/*.ts), `npm run job` (scripts/job.ts) and the local loop (scripts/job-loop.ts) all
 * run them through here, with the same code.
 */
import * as anonymizeEnded from '#lib/jobs/anonymize-ended';
import * as anonymizeInactive from '#lib/jobs/anonymize-inactive';
import * as closeIdeas from '#lib/jobs/close-ideas';
import * as endProjects from '#lib/jobs/end-projects';
import * as results from '#lib/jobs/results';
import * as voteCheckpoints from '#lib/jobs/vote-checkpoints';
import type { JobOptions, JobReport } from '#lib/jobs/run';
import type { JobName } from '#schemas/job';

export { formatReport, type JobOptions } from '#lib/jobs/run';

const JOBS: Record<JobName, (options: JobOptions) => Promise<JobReport>> = {
  'end-projects': endProjects.run,
  'close-ideas': closeIdeas.run,
  'anonymize-ended': anonymizeEnded.run,
  'anonymize-inactive': anonymizeInactive.run,
  'vote-checkpoints': voteCheckpoints.run,
  results: results.run,
};

export const runJob = (name: JobName, options: JobOptions): Promise<JobReport> => JOBS[name](options);
