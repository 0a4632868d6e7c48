/**
 * The search the vote-checkpoints job makes, while a site's log is not yet known to hold every ballot,
 * for a ballot without a seal (no `hash`: stored before the vote log, not yet brought in by `npm run
 * migrate`). Every write since the log began seals the ballot it writes, so once a search from the
 * first ballot to the last finds none, none is left. One Query per call, reading at most one page of
 * ballots (`limit` items, and never more than DynamoDB's 1 MB); the keys (and owners) alone come back.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';

/** Sorts after every ballot key (`BALLOT#` and digits). */
const AFTER_BALLOTS = `${ballotKeys.ballotPrefix}~`;
/** The least key after a ballot's: its key and a character below every digit (ballot keys are all one length). */
const justAfter = (sk: string) => `${sk}!`;

type UnsealedSearch = (
  /** A ballot without a seal, at this key (search again from it once it is sealed). */
  | { kind: 'found'; at: string }
  /** No ballot from `from` to the last is without a seal. */
  | { kind: 'none' }
  /** None in the page read; the search goes on from this key (past the last one read). */
  | { kind: 'more'; from: string }
) & {
  /**
   * Items without a seal in the ballot range under a key that is not their user's ballot key: no
   * ballot (nothing writes one there, migrate cannot seal one), so they hold nothing back; verify-votes
   * reports each as a problem. Their keys, as read in this page.
   */
  misplaced: string[];
};

/** Looks from ballot key `from` ('' for the first) on, one page at most. Consistent, so a seal just written counts. */
export async function searchUnsealedBallot(siteId: number, from: string, limit: number): Promise<UnsealedSearch> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      FilterExpression: 'attribute_not_exists(#hash)',
      ProjectionExpression: 'SK, #userId',
      ExpressionAttributeNames: { '#hash': 'hash', '#userId': 'userId' },
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':from': from === '' ? ballotKeys.ballotPrefix : from, ':to': AFTER_BALLOTS },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  const items = out.Items ?? [];
  const misplaced = items.filter((item) => !ballotKeys.isBallotOf(siteId, item['userId'], String(item['SK']))).map((item) => String(item['SK']));
  const first = items.find((item) => ballotKeys.isBallotOf(siteId, item['userId'], String(item['SK'])));
  if (first) return { kind: 'found', at: String(first['SK']), misplaced };
  const next = out.LastEvaluatedKey;
  return next ? { kind: 'more', from: justAfter(String(next['SK'])), misplaced } : { kind: 'none', misplaced };
}
