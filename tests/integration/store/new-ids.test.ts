/**
 * New ids are made from time (lib/store/db/ids.ts): a create writes no shared item and sends no
 * request for its id; the key's condition, not luck, keeps two items from sharing an id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { FIRST_TIMED_ID, idSource, timedId } from '#lib/store/db/ids';
import { getContentItem } from '#lib/store/content/content-items';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { seedIdeas, validIdea } from '../ideas/helpers.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as createTag } from '../../../functions/tags/create.ts';

const ARGUMENT = { sentiment: 'for', description: 'A reason of a realistic length, a sentence or two long.' };
const TRACE = 'testNewIdTrace';

/** Every DynamoDB request's command and key partition, in order. */
function trace(): { command: string; pk: unknown }[] {
  const sent: { command: string; pk: unknown }[] = [];
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = (args as { input?: { Key?: { PK?: unknown }; TransactItems?: unknown[] } }).input;
      sent.push({ command: String((context as { commandName?: string }).commandName).replace(/Command$/, ''), pk: input?.Key?.PK });
      return next(args);
    },
    { step: 'initialize', name: TRACE, priority: 'high' },
  );
  return sent;
}

const realSource = { clock: idSource.clock, tail: idSource.tail };
afterEach(() => {
  dynamo.middlewareStack.remove(TRACE);
  Object.assign(idSource, realSource);
});

async function world() {
  const site = await createSite();
  const member = await createUser(site.id, 'member');
  const [idea] = await seedIdeas(site.id, 1);
  return { siteId: site.id, member, ideaId: idea!.id };
}

describe('ids without a counter', () => {
  it('an idea create by a member: one read, one write, no counter item touched; the id is a 16-digit timed id', async () => {
    const w = await world();
    const sent = trace();
    const res = await invoke<{ id: number }>(createIdea, { params: { siteId: w.siteId }, body: validIdea('timed'), token: w.member.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(sent.map((s) => s.command)).toEqual(['BatchGetItem', 'TransactWriteItems']);
    expect(sent.some((s) => s.pk === 'COUNTER')).toBe(false);
    expect(res.body.id).toBeGreaterThanOrEqual(FIRST_TIMED_ID);
    expect(Number.isSafeInteger(res.body.id)).toBe(true);
  });

  it('an argument create by a member: the read, then the transaction', async () => {
    const w = await world();
    const sent = trace();
    const res = await invoke<{ id: number }>(createArgument, { params: { siteId: w.siteId, ideaId: w.ideaId }, body: ARGUMENT, token: w.member.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(sent.map((s) => s.command)).toEqual(['BatchGetItem', 'TransactWriteItems']);
  });

  it('creates one after another take ascending ids (creation order is key order), concurrent ones distinct ids', async () => {
    const w = await world();
    const sequential: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await invoke<{ id: number }>(createIdea, { params: { siteId: w.siteId }, body: validIdea(`s${i}`), token: w.member.token });
      sequential.push(res.body.id);
    }
    expect(sequential).toEqual([...sequential].sort((a, b) => a - b));
    const made = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 0
          ? invoke<{ id: number }>(createArgument, { params: { siteId: w.siteId, ideaId: w.ideaId }, body: ARGUMENT, token: w.member.token })
          : i % 3 === 1
            ? invoke<{ id: number }>(createIdea, { params: { siteId: w.siteId }, body: validIdea(`c${i}`), token: w.member.token })
            : invoke<{ id: number }>(createTag, { params: { siteId: w.siteId }, body: { name: `tag ${i}` }, token: SERVICE_TOKEN }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    for (const kind of [0, 1, 2]) {
      const ids = made.filter((_, i) => i % 3 === kind).map((r) => r.body.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('an id another process took already: the conditional write refuses it, the create takes a fresh id, the stored item is untouched', async () => {
    const w = await world();
    // The next create picks the millisecond and tail of an idea that is there (as another process could).
    const ms = Date.now();
    const collide = timedId(ms, 0);
    const [stored] = await seedIdeas(w.siteId, 1, { id: collide });
    let calls = 0;
    Object.assign(idSource, {
      clock: () => (calls === 0 ? ms : Date.now()),
      tail: () => (calls++ === 0 ? 0 : realSource.tail()),
    });
    idSource.last = 0;
    const counted = await countRequests(() => invoke<{ id: number; title: string }>(createIdea, { params: { siteId: w.siteId }, body: validIdea('second try'), token: w.member.token }));
    expect(counted.result.status, JSON.stringify(counted.result.body)).toBe(201);
    expect(counted.result.body.id).not.toBe(collide);
    expect(counted.result.body.id).toBeGreaterThan(collide);
    // The refused transaction and the one that committed.
    expect(counted.commands['TransactWriteItemsCommand']).toBe(2);
    expect((await getContentItem('IDEA', w.siteId, collide))!.title).toBe(stored!.title);
  });
});
