/** Job markers (`JOB#<job>`): lib/store/jobs/jobs.ts. The GSI2 key a marker may carry is read apart. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { JOB_NAMES } from '#schemas/job';
import { storedInt } from '#schemas/stored/read';

export const storedJobMarker = z.object({
  siteId: storedInt,
  job: z.enum(JOB_NAMES),
  /** When the job has work on the site next; null or absent: nothing ahead. */
  dueAt: z._default(z.nullable(z.string()), null),
  /** Where the job continues (close-ideas: the last idea id it looked at); 0 at first. */
  cursor: z._default(storedInt, 0),
});
export type StoredJobMarker = z.output<typeof storedJobMarker>;
