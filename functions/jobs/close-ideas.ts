import { scheduledJob } from '#lib/jobs/lambda';

export const handler = scheduledJob('close-ideas');
