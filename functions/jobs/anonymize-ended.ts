import { scheduledJob } from '#lib/jobs/lambda';
import { run } from '#lib/jobs/anonymize-ended';

export const handler = scheduledJob('anonymize-ended', run);
