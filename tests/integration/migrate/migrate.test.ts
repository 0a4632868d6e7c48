/**
 * `npm run migrate` on data as the code before this round stored it: users without activity keys,
 * ideas without index items. After the migration the jobs and the list filters find them; a second
 * run changes nothing; a dry run writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import { migrate } from '#lib/migrate/run';
import { createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { createLifecycleSite, daysFrom, putUser, runOn, siteData } from '../lifecycle/helpers.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { ListEnvelope } from '#tests/support/bodies';

const T0 = '2030-01-01T00:00:00.000Z';
const config = {
  anonymize: { warnUsersAfterXDaysOfInactivity: 10, anonymizeUsersAfterXDaysOfInactivity: 15 },
  ideas: { automaticallyUpdateStatus: { isActive: true, afterXDays: 10 } },
};
const IDEA = { title: 'A park by the river', summary: 'Green space for everyone nearby', description: 'A long description. '.repeat(10) };

/** A user as stored before the lifecycle change: no GSI2 keys, no lastActivityAt. */
async function oldUser(siteId: number) {
  const user = await putUser(siteId, { lastActivityAt: T0 });
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: userKeys.user(siteId, user.id), UpdateExpression: 'REMOVE GSI2PK, GSI2SK, lastActivityAt' }));
  return user;
}

/** An idea as stored before discovery: no index items, no `indexKeys`. */
async function oldIdea(siteId: number, token: string): Promise<number> {
  const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId }, body: IDEA, token });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  for (const item of await siteData(siteId)) {
    if (String(item.SK).startsWith('IX#')) await doc.send(new DeleteCommand({ TableName: TABLE, Key: { PK: item.PK, SK: item.SK } }));
  }
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: contentKeys.idea(siteId, id), UpdateExpression: 'REMOVE indexKeys' }));
  return id;
}

const openIds = async (siteId: number, query: Record<string, string>) =>
  (await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId }, query: { ...query, sort: 'createdate_asc' } })).body.records.map((r: { id: number }) => r.id);

describe('npm run migrate', () => {
  it('gives old users and ideas what the jobs and filters need; a rerun and a dry run change nothing', async () => {
    const site = await createLifecycleSite(config);
    const member = await createUser(site.id, 'member');
    const idea = await oldIdea(site.id, member.token);
    const ann = await oldUser(site.id);
    expect(await openIds(site.id, { status: 'OPEN' })).toEqual([]);

    const before = await siteData(site.id);
    const dry = await migrate({ siteId: site.id, dryRun: true });
    // The member from the test fixture is stored the old way too (no activity keys).
    expect(dry[0]).toMatchObject({ users: 2, ideas: 1, ballots: 0 });
    expect(await siteData(site.id)).toEqual(before);

    const first = await migrate({ siteId: site.id, dryRun: false });
    expect(first[0]).toMatchObject({ users: 2, ideas: 1, ballots: 0, skipped: 0 });
    expect(await openIds(site.id, { status: 'OPEN' })).toEqual([idea]);
    expect(await openIds(site.id, { search: 'park' })).toEqual([idea]);

    const after = await siteData(site.id);
    const second = await migrate({ siteId: site.id, dryRun: false });
    expect(second[0]).toMatchObject({ users: 0, ideas: 0, ballots: 0, skipped: 0 });
    expect(await siteData(site.id)).toEqual(after);

    const warned = await runOn('anonymize-inactive', site.id, daysFrom(T0, 11));
    expect(warned.sites[0]!.done).toEqual(expect.arrayContaining([expect.stringMatching(`^user ${ann.id} warned`)]));
    const closed = await runOn('close-ideas', site.id, daysFrom(new Date(), 11));
    expect(closed.sites[0]!.done).toEqual([`idea ${idea} CLOSED`]);
  });
});
