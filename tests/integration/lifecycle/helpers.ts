/**
 * Lifecycle test data: sites made through the site-create handler (so their job markers are written
 * as in production), users through the store's create (so they are on the activity index), jobs run
 * with an injected clock, and readers for what the jobs wrote.
 */
import { expect } from 'vitest';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { issueToken } from '#lib/auth/jwt';
import type { Role } from '#lib/auth/roles';
import { runJob, type JobOptions } from '#lib/jobs/index';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { notificationKeys } from '#lib/store/notifications/keys';
import { siteKeys } from '#lib/store/sites/keys';
import { userKeys } from '#lib/store/users/keys';
import { putNewUser, type UserItem } from '#lib/store/users/users';
import type { SiteItem } from '#lib/store/sites/sites';
import type { NotificationItem } from '#lib/store/notifications/notifications';
import { invoke } from '#tests/support/invoke';
import { SERVICE_TOKEN, withNewFixtureUserId } from '#tests/support/fixtures';
import type { JobName } from '#schemas/job';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as createSiteHandler } from '../../../functions/sites/create.ts';
import { handler as updateSiteHandler } from '../../../functions/sites/update.ts';
import type { SiteRecord } from '#schemas/site';

const DAY = 86_400_000;
export const daysFrom = (base: Date | string, days: number) => new Date(new Date(base).getTime() + days * DAY);

export async function createLifecycleSite(config: SiteConfigInput, name = 'Lifecycle site'): Promise<{ id: number }> {
  const res = await invoke<SiteRecord>(createSiteHandler, { method: 'POST', body: { name, title: name, config }, token: SERVICE_TOKEN });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number };
}

export async function updateSiteConfig(siteId: number, config: SiteConfigInput): Promise<void> {
  const res = await invoke<SiteRecord>(updateSiteHandler, { method: 'PUT', params: { siteId }, body: { config }, token: SERVICE_TOKEN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

interface LifecycleUser extends UserItem {
  token: string;
}

/** A site user as a login or POST /user would store it, active at `lastActivityAt` (ids ascending in the order a test makes them, as the fixtures' users). */
export async function putUser(
  siteId: number,
  options: { role?: Role; lastActivityAt?: string; email?: string | null; firstName?: string } = {},
): Promise<LifecycleUser> {
  const now = new Date().toISOString();
  const item = await withNewFixtureUserId(async (id) => {
    const made: UserItem = {
      id,
      siteId,
      role: options.role ?? 'member',
      email: options.email === undefined ? `user${id}@example.org` : options.email,
      firstName: options.firstName ?? 'Ann',
      lastName: `Lee ${id}`,
      nickName: null,
      extraData: {},
      createdAt: options.lastActivityAt ?? now,
      updatedAt: options.lastActivityAt ?? now,
      ...(options.lastActivityAt ? { lastActivityAt: options.lastActivityAt } : {}),
    };
    await putNewUser(made);
    return made;
  });
  return { ...item, token: await issueToken({ userId: item.id, siteId }) };
}

/** A run limited to one site (`npm run job -- <name> --site N`), so parallel test files cannot interfere. */
export const runOn = (name: JobName, siteId: number, now: Date, limits?: JobOptions['limits']) => runJob(name, { now, siteId, limits });

/** A stored item as the table holds it: the store's item type with the keys still on. */
type Stored<T> = T & { PK: string; SK: string };

export async function getItem<T extends object>(key: { PK: string; SK: string }, consistent = true): Promise<Stored<T> | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: consistent }));
  return out.Item as Stored<T> | undefined;
}

export const getStoredSite = (siteId: number) => getItem<SiteItem>(siteKeys.site(siteId));
/** With GSI2SK, the users-by-activity index key (userKeys.usersByActivity) that the lifecycle tests check. */
export const getStoredUser = (siteId: number, userId: number) => getItem<UserItem & { GSI2SK: string }>(userKeys.user(siteId, userId));

/** Everything under the site partition, without the volatile job markers: "did the run change anything?". */
export async function siteData(siteId: number): Promise<Record<string, unknown>[]> {
  const out = await doc.send(
    new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': sitePk(siteId) }, ConsistentRead: true }),
  );
  return (out.Items ?? []).filter((i) => !String(i.SK).startsWith('JOB#'));
}

export async function notificationsOf(siteId: number): Promise<Stored<NotificationItem>[]> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':p': notificationKeys.notificationPrefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as Stored<NotificationItem>[];
}
