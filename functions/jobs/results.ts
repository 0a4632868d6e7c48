import { scheduledJob } from '#lib/jobs/lambda';
import { run } from '#lib/jobs/results';

export const handler = scheduledJob('results', run);
