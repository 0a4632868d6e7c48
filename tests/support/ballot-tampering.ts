/**
 * What a writer with database access (and neither the chain key nor the signing key) can do to a site's
 * ballots, written straight to the table: the vote record's attack tests share these.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { readAllLogEntries, voteLogKeys } from '#lib/store/vote-log/log';
import type { ResultsSnapshotBody } from '#lib/results/compute';
import { packSnapshot, unpackSnapshot } from '#lib/results/snapshot';
import { getResultsHead, readResultsBody, writeResultsSnapshot } from '#lib/store/results/snapshots';

/** Moves an idea's stored 'yes' count by `delta`, as an attacker keeping the tally in step with a forgery would. */
export const addToTally = (siteId: number, ideaId: number, delta: number) =>
  doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: ideaKeys.ideaTally(siteId, ideaId),
      UpdateExpression: 'ADD #c :d',
      ExpressionAttributeNames: { '#c': 'v_yes' },
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

/** Rewrites the site's stored results snapshot with `delta` more 'yes' votes on one idea (its head and body, a new ETag). Returns the body as it was. */
export async function forgeResultsSnapshot(siteId: number, ideaId: number, delta: number): Promise<ResultsSnapshotBody> {
  const head = (await getResultsHead(siteId))!;
  const body = unpackSnapshot((await readResultsBody(head))!) as ResultsSnapshotBody;
  const packed = packSnapshot({ ...body, ideas: body.ideas.map((idea) => (idea.id === ideaId ? { ...idea, yes: idea.yes + delta } : idea)) });
  const { chunks: _chunks, body: _body, ...rest } = head;
  const written = await writeResultsSnapshot({ head: { ...rest, etag: packed.etag, generation: 'forged' }, chunks: packed.chunks, replaces: head }, new Date());
  if (!written) throw new Error('the forged results snapshot was not written');
  return body;
}
