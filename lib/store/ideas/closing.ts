/**
 * What the close-ideas job reads: a site's ideas in id order (which is creation order) from a given
 * id on, one Query. The job keeps the last id it looked at on its marker, so every idea is read by it
 * once, when it has passed `afterXDays`, however large the site grows.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { DELETING, type ContentItem } from '#lib/store/content/content-items';
import { sitePk } from '#lib/store/db/keys';
import { contentKeys } from '#lib/store/content/keys';
import { isIdeaTallySk } from '#lib/store/ideas/keys';
import { contentItemCodec } from '#lib/store/content/codec';

interface IdeaForClosing {
  item: ContentItem;
  /** A tombstone of an idea being deleted: skipped. */
  deleting: boolean;
}

export async function ideasFromId(siteId: number, firstId: number, limit: number): Promise<{ ideas: IdeaForClosing[]; more: boolean }> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':from': contentKeys.idea(siteId, firstId).SK, ':to': `${contentKeys.ideaPrefix}~` },
      Limit: limit,
    }),
  );
  // The range also holds each idea's tally item (`IDEA#<id>#TALLY`), which is not an idea.
  const ideas = (out.Items ?? []).filter((stored) => !isIdeaTallySk(String(stored['SK']))).map((stored) => ({
    item: contentItemCodec.fromItem(stored),
    deleting: stored[DELETING] !== undefined,
  }));
  return { ideas, more: out.LastEvaluatedKey !== undefined };
}
