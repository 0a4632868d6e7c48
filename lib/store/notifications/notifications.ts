/**
 * The outbox (`PK=SITE#<s>, SK=NOTIFICATION#<n>`): records the lifecycle jobs write in the same
 * transaction as the state change they announce, and an external mailer reads and marks sent. They
 * live under the site partition, so a site delete takes them along.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { notificationKeys } from '#lib/store/notifications/keys';
import { queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import type { NotificationRecord, NotificationStatus } from '#schemas/notification';
import { conditionFailed } from '#lib/store/db/failures';
import { update, withCondition } from '#lib/store/db/update';
import { notificationCodec } from '#lib/store/notifications/codec';
import { type TransactItem } from '#lib/store/db/transact';

export type NotificationItem = NotificationRecord;

const strip = notificationCodec.fromItem;

/** The Put of a new notification, for the transaction of the change it announces. */
export const notificationPut = (item: NotificationItem): TransactItem => ({
  Put: {
    TableName: TABLE,
    Item: notificationCodec.toItem(item),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** One page in id order (`status` as a filter): one Query. */
export async function listNotifications(
  siteId: number,
  filter: { status?: NotificationStatus | undefined },
  page: PageRequest,
): Promise<Page<NotificationItem>> {
  const pk = sitePk(siteId);
  const prefix = notificationKeys.notificationPrefix;
  const result = await queryPage<Record<string, unknown>>(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ...(filter.status === undefined
        ? { ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix } }
        : {
            FilterExpression: '#status = :status',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':status': filter.status },
          }),
    },
    page,
    { values: { PK: pk }, skPrefix: prefix },
    { siteId, list: 'notifications', options: { status: filter.status } },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

/**
 * Marks a pending notification sent (one conditional UpdateItem). Returns the record after the
 * write, or, when it was sent already, as it is (the mailer may retry); undefined when it does not exist.
 */
export async function markNotificationSent(siteId: number, notificationId: number, sentAt: string): Promise<NotificationItem | undefined> {
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: notificationKeys.notification(siteId, notificationId),
        ...withCondition(update({ set: { status: 'sent', sentAt } }), { expression: '#status = :pending', names: { '#status': 'status' }, values: { ':pending': 'pending' } }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? strip(out.Attributes) : undefined;
  } catch (err) {
    if (!conditionFailed(err)) throw err;
    // Sent already (answered as it is) or not there at all: the rare path reads it.
    return getNotification(siteId, notificationId);
  }
}

async function getNotification(siteId: number, notificationId: number): Promise<NotificationItem | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: notificationKeys.notification(siteId, notificationId) }));
  return out.Item ? strip(out.Item) : undefined;
}
