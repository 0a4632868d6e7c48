import { scheduledJob } from '#lib/jobs/lambda';
import { run } from '#lib/jobs/end-projects';

export const handler = scheduledJob('end-projects', run);
