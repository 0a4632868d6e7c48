/**
 * Migration access to ideas and ballots stored before discovery (issue 18: ideas without
 * `indexKeys`) and the vote record (issue 16: ballots without `hash`). One Query per page; the
 * writes are the caller's (ideas: `replaceIdea`) or one conditional Update per ballot.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { idFromSk, isIdeaTallySk, keys, sitePk } from '#lib/store/keys';
import { INDEX_KEYS } from '#lib/store/idea-index';
import type { BallotItem, BallotSeal } from '#lib/store/ballots';
import { conditionFailed } from '#lib/store/failures';

export interface MigrationPage<T> {
  items: T[];
  /** Where the next page starts; undefined after the last page. */
  next: Record<string, unknown> | undefined;
}

async function pageOf(siteId: number, prefix: string, start: Record<string, unknown> | undefined, pageSize: number) {
  return doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': prefix },
      ExclusiveStartKey: start,
      Limit: pageSize,
    }),
  );
}

/** One page of a site's ideas (one Query): the ids of those without index items. */
export async function ideasWithoutIndexPage(siteId: number, start: Record<string, unknown> | undefined, pageSize = 100): Promise<MigrationPage<number>> {
  const out = await pageOf(siteId, keys.ideaPrefix, start, pageSize);
  // The range also holds each idea's tally item (`IDEA#<id>#TALLY`), which has no index of its own.
  const items = (out.Items ?? [])
    .filter((raw) => !isIdeaTallySk(String(raw['SK'])) && raw[INDEX_KEYS] === undefined)
    .map((raw) => idFromSk(String(raw['SK'])));
  return { items, next: out.LastEvaluatedKey };
}

/** One page of a site's ballots (one Query): those without a seal. */
export async function unsealedBallotsPage(siteId: number, start: Record<string, unknown> | undefined, pageSize = 100): Promise<MigrationPage<BallotItem>> {
  const out = await pageOf(siteId, keys.ballotPrefix, start, pageSize);
  const items = (out.Items ?? []).filter((raw) => raw.hash === undefined) as BallotItem[];
  return { items, next: out.LastEvaluatedKey };
}

/** Writes a ballot's seal while it still has the version read and no seal; false when it changed. */
export async function sealStoredBallot(siteId: number, userId: number, version: number, seal: BallotSeal): Promise<boolean> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.ballot(siteId, userId),
        UpdateExpression: 'SET #hash = :hash, prevHash = :prev',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#hash) AND version = :v',
        ExpressionAttributeNames: { '#hash': 'hash' },
        ExpressionAttributeValues: { ':hash': seal.hash, ':prev': seal.prevHash, ':v': version },
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
