/** Keys of the job markers: one per site and job, and on GSI2 (sparse) the markers of a job by due time. */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const jobKeys = {
  /** One marker per site and job: what the job should look at next and when (GSI2 keys only while due). */
  jobMarker: (siteId: number, job: string): Key => ({ PK: sitePk(siteId), SK: `JOB#${job}` }),
  /** GSI2: the markers of one job, by the time they fall due. */
  jobDue: (job: string, dueAt: string, siteId: number) => ({ GSI2PK: `DUE#${job}`, GSI2SK: `${dueAt}#${pad(siteId)}` }),
  jobDuePartition: (job: string) => `DUE#${job}`,
} as const;
