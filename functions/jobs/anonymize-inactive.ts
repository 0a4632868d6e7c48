import { scheduledJob } from '#lib/jobs/lambda';
import { run } from '#lib/jobs/anonymize-inactive';

export const handler = scheduledJob('anonymize-inactive', run);
