/**
 * Writes vote log entries directly, as the writes that make them do (sealed with the chain key of the
 * process, chained per ballot), for tests of the sequencer, the receipts and the audit.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { logEntryPut, readAllLogEntries } from '#lib/store/vote-log/log';
import { entryItemOf, sealedOf } from '#lib/vote-record/entry-item';
import { GENESIS_MAC, sealEntry, type SealedEntry } from '#lib/vote-record/entry';
import { voteChainKey } from '#lib/vote-record/keys';

export interface EntrySpec {
  userId: number;
  ideaIds: readonly number[];
  opinion?: string;
  writtenAt: Date | string;
}

export const toEntryItem = entryItemOf;

/** Appends entries (each the next version of its user's ballot, after what the log holds already). */
export async function writeEntries(siteId: number, specs: readonly EntrySpec[]): Promise<SealedEntry[]> {
  const heads = new Map<number, SealedEntry>();
  for (const item of await readAllLogEntries(siteId)) {
    const known = heads.get(item.userId);
    if (!known || item.version > known.version) heads.set(item.userId, sealedOf(item));
  }
  const written: SealedEntry[] = [];
  for (const spec of specs) {
    const previous = heads.get(spec.userId);
    const entry = sealEntry(voteChainKey(), {
      siteId,
      userId: spec.userId,
      version: (previous?.version ?? 0) + 1,
      prevMac: previous?.mac ?? GENESIS_MAC,
      votes: spec.ideaIds.map((ideaId) => ({ ideaId, opinion: spec.opinion ?? 'yes' })),
      writtenAt: typeof spec.writtenAt === 'string' ? spec.writtenAt : spec.writtenAt.toISOString(),
    });
    heads.set(spec.userId, entry);
    written.push(entry);
  }
  // The item each would Put in its own write; in batches of 25 here (the fixture needs no condition).
  const items = written.map((entry) => logEntryPut(toEntryItem(entry)).Put.Item);
  for (let i = 0; i < items.length; i += 25) {
    let pending: unknown[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending as never } }));
      pending = (out.UnprocessedItems?.[TABLE] ?? []) as unknown[];
    }
  }
  return written;
}
