import { scheduledJob } from '#lib/jobs/lambda';

export const handler = scheduledJob('vote-checkpoints');
