/**
 * Job markers: one item per site and scheduled job (`PK=SITE#<s>, SK=JOB#<job>`) saying when that
 * job has work on the site next. While it has, the marker carries GSI2 keys `DUE#<job>` /
 * `<dueAt>#<s>`, so a job run finds its due sites with ONE Query on GSI2 (never a scan, never a read
 * of sites with nothing to do); a marker with nothing ahead has no GSI2 keys (a sparse index).
 *
 * Two writers:
 *   - site create/update (`syncJobMarkers`): the due times that follow from the new config, guarded
 *     by the site's `updatedAt` so an older update never overwrites a newer one;
 *   - the jobs (`updateJobMarker`, `commitEndProject`): the next due time and where to continue,
 *     conditioned on the index key (and cursor) they read, so of two overlapping runs one moves the
 *     marker and the other's write is refused.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, GSI2, TABLE } from '#lib/store/db/client';
import { jobKeys } from '#lib/store/jobs/keys';
import { siteKeys } from '#lib/store/sites/keys';
import { notificationPut, type NotificationItem } from '#lib/store/notifications/notifications';
import type { SiteConfigInput } from '#schemas/site-config';
import type { JobName } from '#schemas/job';
import { conditionFailed } from '#lib/store/db/failures';
import { update, withCondition } from '#lib/store/db/update';
import { jobMarkerCodec } from '#lib/store/jobs/codec';
import { transact, type TransactItem } from '#lib/store/db/transact';


export interface JobMarker {
  siteId: number;
  job: JobName;
  dueAt: string | null;
  /** Where the job continues (close-ideas: the last idea id it looked at); 0 at first. */
  cursor: number;
  /** The GSI2 sort key as read ('' when not due): the condition of the job's next write. */
  indexKey: string;
}

/**
 * Markers are written by Updates only (their fields change apart: see above), so the codec reads and
 * names the key; the GSI2 keys are set by `dueParts`.
 */

const toMarker = (raw: Record<string, unknown>): JobMarker => ({
  ...jobMarkerCodec.fromItem(raw),
  indexKey: typeof raw.GSI2SK === 'string' ? raw.GSI2SK : '',
});

/** What puts a marker on GSI2 at `dueAt`, or takes it off (null). */
function dueParts(job: JobName, siteId: number, dueAt: string | null): { set: Record<string, unknown>; remove: string[] } {
  if (dueAt === null) return { set: { dueAt: null }, remove: ['GSI2PK', 'GSI2SK'] };
  return { set: { dueAt, ...jobKeys.jobDue(job, dueAt, siteId) }, remove: [] };
}

/**
 * Writes the due times that follow from a site's config (one transaction of one Update per job). A
 * marker already written by a newer site update (`siteUpdatedAt` later) is left alone; the cursor of
 * a marker is kept.
 */
export async function syncJobMarkers(siteId: number, dues: Record<JobName, string | null>, siteUpdatedAt: string): Promise<void> {
  const items: TransactItem[] = Object.entries(dues).map(([job, dueAt]) => {
    const parts = dueParts(job as JobName, siteId, dueAt);
    return {
      Update: {
        TableName: TABLE,
        Key: jobKeys.jobMarker(siteId, job),
        ...withCondition(update({ set: { ...parts.set, job, siteId, siteUpdatedAt }, setIfAbsent: { cursor: 0 }, remove: parts.remove }), {
          expression: 'attribute_not_exists(siteUpdatedAt) OR siteUpdatedAt <= :u',
          values: { ':u': siteUpdatedAt },
        }),
      },
    };
  });
  try {
    await transact(items);
  } catch (err) {
    // A newer site update wrote the markers: its due times stand. (Conflicts: lib/store/db/retry.ts.)
    if (!conditionFailed(err)) throw err;
  }
}

/** The markers of `job` due at `now` or earlier, earliest first: one Query on GSI2. */
export async function dueJobMarkers(job: JobName, now: string, limit: number): Promise<JobMarker[]> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :upper',
      ExpressionAttributeValues: { ':pk': jobKeys.jobDuePartition(job), ':upper': `${now}#~` },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(toMarker);
}

/** One site's marker of `job` (for a run limited to one site), consistently read. */
export async function getJobMarker(siteId: number, job: JobName): Promise<JobMarker | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: jobKeys.jobMarker(siteId, job), ConsistentRead: true }));
  return out.Item ? toMarker(out.Item) : undefined;
}

/** The Update that moves a marker on, conditioned on the index key and cursor it was read with. */
function markerUpdate(marker: JobMarker, next: { dueAt: string | null; cursor?: number }): TransactItem {
  const parts = dueParts(marker.job, marker.siteId, next.dueAt);
  return {
    Update: {
      TableName: TABLE,
      Key: jobKeys.jobMarker(marker.siteId, marker.job),
      ...withCondition(update({ set: { ...parts.set, cursor: next.cursor ?? marker.cursor }, remove: parts.remove }), {
        expression: marker.indexKey ? 'GSI2SK = :seen AND #cursor = :seenCursor' : 'attribute_not_exists(GSI2SK) AND #cursor = :seenCursor',
        names: { '#cursor': 'cursor' },
        values: { ':seenCursor': marker.cursor, ...(marker.indexKey ? { ':seen': marker.indexKey } : {}) },
      }),
    },
  };
}

/**
 * Makes `job` due on the site by `dueAt` at the latest: the marker moves to `dueAt` unless it is due
 * earlier already (a run in progress keeps its place). For work that something other than the site's
 * config asks for (new votes to count, a moderator asking for results now).
 */
export async function makeJobDueBy(siteId: number, job: JobName, dueAt: string): Promise<void> {
  const parts = dueParts(job, siteId, dueAt);
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: jobKeys.jobMarker(siteId, job),
        ...withCondition(update({ set: { ...parts.set, job, siteId }, setIfAbsent: { cursor: 0 }, remove: parts.remove }), {
          expression: 'attribute_not_exists(dueAt) OR attribute_type(dueAt, :null) OR dueAt > :due',
          values: { ':null': 'NULL', ':due': dueAt },
        }),
      }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err; // due earlier already
  }
}

/** Moves a marker on; false when another run (or a site update) moved it first. */
export async function updateJobMarker(marker: JobMarker, next: { dueAt: string | null; cursor?: number }): Promise<boolean> {
  try {
    await doc.send(new UpdateCommand(markerUpdate(marker, next).Update!));
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/**
 * The end of a project, one transaction: the site's `config.project` replaced (only while the site
 * is still the version read: an admin's update meanwhile wins), the project-ended notification put
 * into the outbox, and the marker taken off the index (only by the run that read it). False when any
 * of them moved meanwhile: nothing was written.
 */
export async function commitEndProject(input: {
  marker: JobMarker;
  siteUpdatedAt: string;
  project: NonNullable<SiteConfigInput['project']>;
  notification: NotificationItem | undefined;
  /** What this run found still to do: the write holds only while nobody did it meanwhile. */
  found: { notEnded: boolean; notNotified: boolean };
}): Promise<boolean> {
  // This write does not change `updatedAt`, so a second run that read the same site would pass that
  // condition: the flags it sets are the guard (a run limited to one site can read the marker after
  // another run took it off the index, so the marker alone does not stop it).
  const unset = (flag: string) => `(attribute_not_exists(#config.#project.${flag}) OR #config.#project.${flag} = :false)`;
  const guards = [...(input.found.notEnded ? [unset('#ended')] : []), ...(input.found.notNotified && input.notification ? [unset('#sent')] : [])];
  const items: TransactItem[] = [
    {
      Update: {
        TableName: TABLE,
        Key: siteKeys.site(input.marker.siteId),
        ...withCondition(update({ setAt: [[['config', 'project'], input.project]] }), {
          expression: ['updatedAt = :seen', ...guards].join(' AND '),
          names: {
            ...(guards.length > 0 ? { '#config': 'config', '#project': 'project' } : {}),
            ...(input.found.notEnded ? { '#ended': 'projectHasEnded' } : {}),
            ...(guards.some((g) => g.includes('#sent')) ? { '#sent': 'endDateNotificationSent' } : {}),
          },
          values: { ':seen': input.siteUpdatedAt, ...(guards.length > 0 ? { ':false': false } : {}) },
        }),
      },
    },
    ...(input.notification ? [notificationPut(input.notification)] : []),
    markerUpdate(input.marker, { dueAt: null }),
  ];
  try {
    await transact(items);
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
