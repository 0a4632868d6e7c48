/**
 * What a writer with database access (and neither the chain key nor the signing key) can do to a site's
 * ballots, written straight to the table: the vote record's attack tests share these.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import type { Key } from '#lib/store/db/keys';
import { run as checkpointRun } from '#lib/jobs/vote-checkpoints';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { readAllLogEntries, voteLogKeys } from '#lib/store/vote-log/log';
import type { ResultsSnapshotBody } from '#lib/results/compute';
import { packSnapshot, unpackSnapshot } from '#lib/results/snapshot';
import { getResultsHead, readResultsBody, writeResultsSnapshot } from '#lib/store/results/snapshots';
import { createUser } from '#tests/support/fixtures';
import { castVotes, createIdeas, votingSite } from '#tests/support/vote-fixtures';
import { atWallClock } from '#tests/support/wall-clock';

/** A count-voting site with three ideas and three voters (1, 2 and 3 votes), each round sealed in the log. */
export async function votedSite() {
  const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
  const ideas = await createIdeas(site.id, 3);
  const users = await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)]);
  for (const [i, user] of users.entries()) {
    const res = await castVotes(site.id, user.token, ideas.slice(0, i + 1).map((ideaId) => ({ ideaId })));
    expect(res.status).toBe(200);
  }
  return { site, ideas, users };
}

export const minutesLater = (minutes: number) => new Date(Date.now() + minutes * 60_000);

/** A run of the vote-checkpoints job `minutes` from now (the wall clock moved along), for one site. */
export const checkpointLater = (siteId: number, minutes = 1, options: { share?: number } = {}) => {
  const at = minutesLater(minutes);
  return atWallClock(at, () => checkpointRun({ now: at, siteId, ...options }));
};

/** How the audit tools name an item they report. */
export const itemName = (key: Key) => `${key.PK}/${key.SK}`;

/**
 * Puts an item under a voter's ballot key that does not match the ballot's schema: a well-formed
 * ballot without a seal, with `fields` replacing its attributes (undefined: the attribute left out).
 * Returns the item's name as the audit tools report it.
 */
export async function putMalformedBallot(siteId: number, userId: number, fields: Record<string, unknown>): Promise<string> {
  const key = ballotKeys.ballot(siteId, userId);
  const item = Object.entries({ ...key, siteId, userId, version: 1, updatedAt: new Date().toISOString(), votes: {}, ...fields }).filter(([, value]) => value !== undefined);
  await doc.send(new PutCommand({ TableName: TABLE, Item: Object.fromEntries(item) }));
  return itemName(key);
}

/** Sets attributes of a stored item (a log entry, a checkpoint, a tile, the log head) to what the writer chooses. */
export async function overwriteAttributes(key: Key, attributes: Record<string, unknown>): Promise<void> {
  const names = Object.keys(attributes);
  await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, attributes[name]])),
    }),
  );
}

/** Puts an item of the writer's making under a key (a made-up log entry, say). */
export const putItem = (key: Key, attributes: Record<string, unknown>) => doc.send(new PutCommand({ TableName: TABLE, Item: { ...attributes, ...key } }));

/** Moves an idea's stored 'yes' count (and its rank in the order by votes) by `delta`, as an attacker keeping the tally in step with a forgery would. */
export const addToTally = (siteId: number, ideaId: number, delta: number) =>
  doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: ideaKeys.ideaTally(siteId, ideaId),
      UpdateExpression: 'ADD #c :d, #rank :d',
      ExpressionAttributeNames: { '#c': 'v_yes', '#rank': 'GSI3SK' },
      ExpressionAttributeValues: { ':d': delta },
    }),
  );

/** A ballot put in the table with a 'yes' vote, no seal and no log entry; the tally moved along. Returns its user id. */
export async function forgeBallot(siteId: number, ideaId: number): Promise<number> {
  const userId = 900_000 + Math.floor(Math.random() * 100_000);
  const at = new Date().toISOString();
  await doc.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...ballotKeys.ballot(siteId, userId), siteId, userId, version: 1, updatedAt: at, votes: { [String(ideaId)]: { id: 77, opinion: 'yes', createdAt: at } } },
    }),
  );
  await addToTally(siteId, ideaId, 1);
  return userId;
}

/** Makes a voter's ballot look as the code before the vote log left it: no seal, no entries in the log. */
export async function unsealAsBeforeTheLog(siteId: number, userId: number): Promise<void> {
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: ballotKeys.ballot(siteId, userId), UpdateExpression: 'REMOVE #h, prevHash', ExpressionAttributeNames: { '#h': 'hash' } }));
  for (const entry of (await readAllLogEntries(siteId)).filter((e) => e.userId === userId)) {
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.entry(siteId, entry.writtenAt, entry.mac) }));
  }
}

/** Rewrites the site's stored results snapshot with `body` (its head and body, a new ETag). */
export async function replaceResultsSnapshotBody(siteId: number, body: unknown): Promise<void> {
  const head = (await getResultsHead(siteId))!;
  const packed = packSnapshot(body);
  const { chunks: _chunks, body: _body, ...rest } = head;
  const written = await writeResultsSnapshot({ head: { ...rest, etag: packed.etag, generation: 'forged' }, chunks: packed.chunks, replaces: head }, new Date());
  if (!written) throw new Error('the forged results snapshot was not written');
}

/** Rewrites the site's stored results snapshot with `delta` more 'yes' votes on one idea (its head and body, a new ETag). Returns the body as it was. */
export async function forgeResultsSnapshot(siteId: number, ideaId: number, delta: number): Promise<ResultsSnapshotBody> {
  const head = (await getResultsHead(siteId))!;
  const body = unpackSnapshot((await readResultsBody(head))!) as ResultsSnapshotBody;
  await replaceResultsSnapshotBody(siteId, { ...body, ideas: body.ideas.map((idea) => (idea.id === ideaId ? { ...idea, yes: idea.yes + delta } : idea)) });
  return body;
}
