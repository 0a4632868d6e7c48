/**
 * Ballots written straight to the table (results and export tests): sealed as a vote round seals
 * them (each with its vote log entry), but without the round's rules or tallies, so a test can lay out any ballots it needs fast.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { userKeys } from '#lib/store/users/keys';
import { logEntryPut } from '#lib/store/vote-log/log';
import { sealBallot } from '#lib/votes/seal';

let nextUser = 900_000_000;

/** One ballot per entry (user ids unique across tests unless given); each vote `yes` unless told. */
export async function putBallots(siteId: number, ballots: readonly { userId?: number; ideaIds: readonly number[]; opinion?: string }[]): Promise<number[]> {
  const now = new Date().toISOString();
  const entries: Record<string, unknown>[] = [];
  const items = ballots.map((ballot) => {
    const userId = ballot.userId ?? nextUser++;
    const votes = Object.fromEntries(ballot.ideaIds.map((ideaId, i) => [String(ideaId), { id: userId * 100 + i, opinion: ballot.opinion ?? 'yes', createdAt: now }]));
    const { hash, prevHash, entry } = sealBallot(undefined, { siteId, userId, version: 1, votes });
    entries.push(logEntryPut(entry).Put.Item);
    return { ...ballotKeys.ballot(siteId, userId), ...userKeys.ownedBy(userId, 'BALLOT', siteId), siteId, userId, votes, version: 1, updatedAt: now, hash, prevHash };
  });
  const all: Record<string, unknown>[] = [...items, ...entries];
  for (let i = 0; i < all.length; i += 25) {
    let pending: unknown[] = all.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending as never } }));
      pending = (out.UnprocessedItems?.[TABLE] ?? []) as unknown[];
    }
  }
  return items.map((item) => item.userId);
}
