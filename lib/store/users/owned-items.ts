/**
 * What one person did, read through GSI1 (activity, anonymization):
 *
 *   `EXTUSER#<auth server>|<external id>`  the person's site user on every site (the auth-server link);
 *   `USER#<u>`                             everything one site user owns: ideas, articles, arguments,
 *                                          the ballot and newsletter signups, told apart by the GSI1SK
 *                                          prefix (`IDEA#`, `ARTICLE#`, `ARG#`, `BALLOT#`, `SIGNUP#`).
 *
 * User ids are unique across the service, so a `USER#<u>` partition holds one site's items only, and
 * ONE Query (one page per 1 MB) returns all of a site user's kinds at once. The read still keeps the
 * site's own items (a filter on the table key, no request more): an id reused on another site, by an
 * import or a writer with table access, must not pull that site's items into an activity answer, an
 * export or an anonymization, which deletes what it reads.
 */
import { type ArgumentItem } from '#lib/store/arguments/arguments';
import { argumentCodec } from '#lib/store/arguments/codec';
import { wellFormedBallots, type BallotItem } from '#lib/store/ballots/ballots';
import { GSI1 } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import type { ContentItem } from '#lib/store/content/content-items';
import { contentItemCodec } from '#lib/store/content/codec';
import { type OwnedKind, userKeys } from '#lib/store/users/keys';
import { type SignupItem } from '#lib/store/newsletter/newsletter';
import { signupCodec } from '#lib/store/newsletter/codec';
import { queryAll } from '#lib/store/db/query';
import { type UserItem } from '#lib/store/users/users';
import { userCodec } from '#lib/store/users/codec';

export interface OwnedItems {
  ideas: ContentItem[];
  articles: ContentItem[];
  arguments: ArgumentItem[];
  /**
   * The user's ballot on the site (may hold no votes); undefined when they never voted, or when the
   * item is malformed or is not this user's ballot (left out and logged, as everywhere: `wellFormedBallots`).
   */
  ballot: BallotItem | undefined;
  signups: SignupItem[];
}

export const ALL_OWNED_KINDS: readonly OwnedKind[] = ['IDEA', 'ARTICLE', 'ARG', 'BALLOT', 'SIGNUP'];

const empty = (): OwnedItems => ({ ideas: [], articles: [], arguments: [], ballot: undefined, signups: [] });

/**
 * The items of the given kinds one site user owns on their site, in id order per kind: ONE GSI1 Query
 * over the smallest GSI1SK range that covers the kinds asked for (kinds inside the range that were not
 * asked for are dropped here), filtered to the site's partition; none when no kind is asked for.
 * Eventually consistent, like every GSI read.
 */
export async function itemsOwnedBy(siteId: number, userId: number, kinds: Iterable<OwnedKind>): Promise<OwnedItems> {
  const wanted = new Set(kinds);
  const result = empty();
  if (wanted.size === 0) return result;
  const prefixes = [...wanted].map((kind) => userKeys.ownedByKindPrefix(kind)).sort();
  // Ids in keys are digits, so `<prefix>~` sorts after every key of that prefix.
  const raw = await queryAll<Record<string, unknown>>({
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
    FilterExpression: 'PK = :site',
    ExpressionAttributeValues: {
      ':pk': userKeys.ownedByPartition(userId),
      ':site': sitePk(siteId),
      ':from': prefixes[0],
      ':to': `${prefixes[prefixes.length - 1]}~`,
    },
  });
  const kindOf = (sk: string) => [...wanted].find((kind) => sk.startsWith(userKeys.ownedByKindPrefix(kind)));
  for (const item of raw) {
    const kind = kindOf(String(item.GSI1SK));
    if (kind === 'IDEA') result.ideas.push(contentItemCodec.fromItem(item));
    else if (kind === 'ARTICLE') result.articles.push(contentItemCodec.fromItem(item));
    else if (kind === 'ARG') result.arguments.push(argumentCodec.fromItem(item));
    // A corrupt item must not block a person's access to their own data: it shows nowhere, as it counts nowhere.
    else if (kind === 'BALLOT') result.ballot = wellFormedBallots([item]).find((ballot) => ballot.userId === userId) ?? result.ballot;
    else if (kind === 'SIGNUP') result.signups.push(signupCodec.fromItem(item));
  }
  return result;
}

/**
 * The whole user items of every site user linked to one auth-server user: one GSI1 Query (paged only
 * past 1 MB). Eventually consistent: writes that depend on an item must condition on what was read.
 */
export async function linkedSiteUsers(externalKey: string): Promise<UserItem[]> {
  const items = await queryAll<Record<string, unknown>>({
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': userKeys.userByExternal(externalKey).GSI1PK },
  });
  return items.map(userCodec.fromItem);
}
