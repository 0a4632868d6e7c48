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
import { ballotCodec } from '#lib/store/ballots/codec';
import type { MalformedItem } from '#lib/store/db/codec';

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
  /**
   * Items without a seal under their user's ballot key that do not match the ballot's schema: migrate
   * refuses to seal them, so they hold nothing back either; reported as problems, as read in this page.
   */
  malformed: MalformedItem[];
};

/**
 * Looks from ballot key `from` ('' for the first) on, one page at most. Consistent, so a seal just
 * written counts. The items come back whole (a Query's read cost is the items' size whatever it
 * projects) so that each can be checked against the ballot's schema.
 */
export async function searchUnsealedBallot(siteId: number, from: string, limit: number): Promise<UnsealedSearch> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      FilterExpression: 'attribute_not_exists(#hash)',
      ExpressionAttributeNames: { '#hash': 'hash' },
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':from': from === '' ? ballotKeys.ballotPrefix : from, ':to': AFTER_BALLOTS },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  const items = out.Items ?? [];
  const placed = (item: Record<string, unknown>) => ballotKeys.isBallotOf(siteId, item['userId'], String(item['SK']));
  const misplaced = items.filter((item) => !placed(item)).map((item) => String(item['SK']));
  const malformed: MalformedItem[] = [];
  let found: string | undefined;
  for (const item of items.filter(placed)) {
    const checked = ballotCodec.check(item);
    if ('malformed' in checked) malformed.push(checked.malformed);
    else found ??= String(item['SK']);
  }
  if (found !== undefined) return { kind: 'found', at: found, misplaced, malformed };
  const next = out.LastEvaluatedKey;
  return next ? { kind: 'more', from: justAfter(String(next['SK'])), misplaced, malformed } : { kind: 'none', misplaced, malformed };
}
