/**
 * Whole-site reads for results, exports and the vote record: a site's ballots and ideas by
 * a paged Query of their key range (one request per 1 MB read, never a Scan), with projections so
 * only what is used travels. Requests grow with the bytes of the site's ballots, not with anything
 * else: ceil(ballot bytes / 1 MB) Query pages (docs/results.md "Cost").
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ballotViewOf, wellFormedBallots, type BallotItem } from '#lib/store/ballots/ballots';
import { recordReader, type MalformedItem } from '#lib/store/db/codec';
import { ballotCodec } from '#lib/store/ballots/codec';
import { storedBallotAttributes } from '#schemas/stored/ballot';
import { storedSiteIdea, type StoredSiteIdea } from '#schemas/stored/site-idea';
import { doc, TABLE } from '#lib/store/db/client';
import { DELETING } from '#lib/store/content/content-items';
import { sitePk, type Key } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { contentKeys } from '#lib/store/content/keys';
import { isIdeaTallySk } from '#lib/store/ideas/keys';
import { queryAll } from '#lib/store/db/query';

/** The attributes of an idea that results and exports use. */
export type SiteIdeaItem = StoredSiteIdea;
const siteIdeaOf = recordReader('idea', storedSiteIdea);

const IDEA_PROJECTION = {
  ProjectionExpression: 'SK, #id, #title, #status, #budget, #extraData.#theme, #createdAt, #deleting',
  ExpressionAttributeNames: {
    '#id': 'id',
    '#title': 'title',
    '#status': 'status',
    '#budget': 'budget',
    '#extraData': 'extraData',
    '#theme': 'theme',
    '#createdAt': 'createdAt',
    '#deleting': DELETING,
  },
};

const range = (siteId: number, prefix: string) => ({
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
  ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': prefix },
});

/** Ideas that are not being deleted; the `IDEA#` range also holds each idea's tally item, which has no `id`. */
const live = (items: Record<string, unknown>[]): SiteIdeaItem[] =>
  items.filter((item) => !isIdeaTallySk(String(item['SK'])) && item[DELETING] === undefined).map(siteIdeaOf);

/** Every idea of the site (not those being deleted), in id order. */
export async function readSiteIdeas(siteId: number): Promise<SiteIdeaItem[]> {
  return live(await queryAll<Record<string, unknown>>({ ...range(siteId, contentKeys.ideaPrefix), ...IDEA_PROJECTION }));
}

/** Which attributes of the ballots a reader needs. */
type BallotView = 'votes' | 'seal' | 'all';

/**
 * What counts (results, exports): every attribute the ballot's schema names, with the item's key, so
 * each ballot is checked whole, as verify-votes checks it, and one that fails is named by its key. A
 * projection changes the bytes sent back, not the Query pages: DynamoDB reads (and bills) whole items.
 */
const COUNTED_PROJECTION = {
  ProjectionExpression: ['PK', 'SK', ...storedBallotAttributes.map((name) => `#${name}`)].join(', '),
  ExpressionAttributeNames: Object.fromEntries(storedBallotAttributes.map((name) => [`#${name}`, name])),
};

const BALLOT_PROJECTIONS: Record<Exclude<BallotView, 'all'>, { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> }> = {
  votes: COUNTED_PROJECTION,
  seal: {
    ProjectionExpression: '#userId, #hash, #version, #updatedAt, #prevHash, #prevUpdatedAt',
    ExpressionAttributeNames: {
      '#userId': 'userId',
      '#hash': 'hash',
      '#version': 'version',
      '#updatedAt': 'updatedAt',
      '#prevHash': 'prevHash',
      '#prevUpdatedAt': 'prevUpdatedAt',
    },
  },
};

const ballotProjection = (view: BallotView) => (view === 'all' ? {} : BALLOT_PROJECTIONS[view]);

const readBallotRange = (siteId: number, view: BallotView, consistent: boolean) =>
  queryAll<Record<string, unknown>>({
    ...range(siteId, ballotKeys.ballotPrefix),
    ...ballotProjection(view),
    ...(consistent ? { ConsistentRead: true } : {}),
  });

/** Every ballot of the site, in user id order. `consistent` for the verification. */
export async function readSiteBallots(siteId: number, view: BallotView, consistent = false): Promise<BallotItem[]> {
  const items = await readBallotRange(siteId, view, consistent);
  return view === 'votes' ? wellFormedBallots(items) : items.map(ballotViewOf);
}

/**
 * An item of the ballot range with the sort key it is stored under (which a writer may have chosen):
 * a ballot, or an item that does not match the ballot's schema (a writer put it there).
 */
export type KeyedBallot = { sk: string; ballot: BallotItem } | { sk: string; malformed: MalformedItem };

/**
 * Every item of the site's ballot range, whole, with its sort key, consistently (for the verification),
 * each checked against the whole ballot schema: a malformed one comes back as such, never thrown, so
 * the audit reports it and goes on with the others.
 */
export async function readSiteBallotsKeyed(siteId: number): Promise<KeyedBallot[]> {
  return (await readBallotRange(siteId, 'all', true)).map((item) => {
    const sk = String(item['SK']);
    const checked = ballotCodec.check(item);
    return 'record' in checked ? { sk, ballot: checked.record } : { sk, malformed: checked.malformed };
  });
}

/** The two ranges an export pages through. */
export type ExportRange = 'ballots' | 'ideas';

/**
 * One Query page (at most 1 MB read) of ballots or ideas from `start`; `last` undefined at the end.
 * `limit` caps the items read (tests use it to page small sites).
 */
export async function siteRangePage<T>(
  siteId: number,
  what: ExportRange,
  start: Key | undefined,
  limit?: number,
): Promise<{ items: T[]; last: Key | undefined }> {
  const prefix = what === 'ballots' ? ballotKeys.ballotPrefix : contentKeys.ideaPrefix;
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      ...range(siteId, prefix),
      ...(what === 'ballots' ? ballotProjection('votes') : IDEA_PROJECTION),
      ...(start ? { ExclusiveStartKey: start } : {}),
      ...(limit ? { Limit: limit } : {}),
    }),
  );
  const items = (out.Items ?? []) as Record<string, unknown>[];
  return {
    items: (what === 'ideas' ? live(items) : wellFormedBallots(items)) as unknown as T[],
    last: out.LastEvaluatedKey as Key | undefined,
  };
}
