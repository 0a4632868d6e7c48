import { scheduledJob } from '#lib/jobs/lambda';
import { run } from '#lib/jobs/vote-checkpoints';

export const handler = scheduledJob('vote-checkpoints', run);
