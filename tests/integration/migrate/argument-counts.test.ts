/**
 * `npm run migrate` step (f): ideas whose arguments were written before argument writes moved the
 * count on the idea's tally item get it counted; an argument written after the deploy (whose ADD
 * started the count at 1) is corrected; a rerun changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { argumentKeys } from '#lib/store/arguments/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { migrateSite } from '#lib/migrate/site';
import { readIdeaTallies } from '#lib/store/ideas/tallies';
import { newId } from '#lib/store/db/ids';
import { createSite } from '#tests/support/fixtures';
import { putIdea } from '#tests/support/ideas-fixture';
import { seedArgument } from '../ideas/helpers.ts';

/** An argument as stored before the count: the item alone. */
async function oldArgument(siteId: number, ideaId: number) {
  const id = newId();
  const now = new Date().toISOString();
  const item = { id, siteId, ideaId, userId: null, parentId: null, sentiment: 'for', description: 'An argument stored before the counts', createdAt: now, updatedAt: now };
  await doc.send(new PutCommand({ TableName: TABLE, Item: { ...argumentKeys.argument(siteId, ideaId, id), ...item } }));
}

describe('npm run migrate: argument counts', () => {
  it('counts the arguments of every idea once, and a rerun changes nothing', async () => {
    const site = await createSite();
    const quiet = await putIdea(site.id);
    const argued = await putIdea(site.id);
    const mixed = await putIdea(site.id);
    for (let i = 0; i < 3; i++) await oldArgument(site.id, argued.id);
    await oldArgument(site.id, mixed.id);
    await seedArgument(site.id, mixed.id);
    // The tally item of `argued` as the code before the count left it.
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, argued.id), UpdateExpression: 'REMOVE args' }));

    const dry = await migrateSite(site.id, { dryRun: true });
    expect(dry).toMatchObject({ argCounts: 2 });
    const report = await migrateSite(site.id, { dryRun: false });
    expect(report).toMatchObject({ argCounts: 2, skipped: 0 });
    const tallies = await readIdeaTallies(site.id, [quiet.id, argued.id, mixed.id], { consistent: true });
    expect([quiet.id, argued.id, mixed.id].map((id) => tallies.get(id)?.args)).toEqual([0, 3, 2]);
    expect(await migrateSite(site.id, { dryRun: false })).toMatchObject({ argCounts: 0, skipped: 0 });
  });
});
