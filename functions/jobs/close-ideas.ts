import { scheduledJob } from '#lib/jobs/lambda';
import { run } from '#lib/jobs/close-ideas';

export const handler = scheduledJob('close-ideas', run);
