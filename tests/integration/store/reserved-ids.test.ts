/**
 * A create's new id is reserved beside the request's first read (lib/store/db/prefetch.ts `newId`): the
 * counter's ADD and the BatchGet of site and caller go out together, so an argument or idea create by
 * a site user is two round trips (read + id, then the transaction), not three.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { seedIdeas, validIdea } from '../ideas/helpers.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';

const ARGUMENT = { sentiment: 'for', description: 'A reason of a realistic length, a sentence or two long.' };
const TRACE = 'testReservedIdTrace';

/** Values the counters' ADDs returned during a trace, in order (other test files share the counters). */
let added: number[] = [];

/** `send X` / `done X` per DynamoDB request, X the command (and for an UpdateItem, the counter's type). */
function trace(): string[] {
  const events: string[] = [];
  added = [];
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName).replace(/Command$/, '');
      const key = (args as { input?: { Key?: { PK?: unknown; SK?: unknown } } }).input?.Key;
      const what = command === 'UpdateItem' && key?.PK === 'COUNTER' ? `UpdateItem counter ${String(key.SK)}` : command;
      events.push(`send ${what}`);
      const answer = await next(args);
      events.push(`done ${what}`);
      if (key?.PK === 'COUNTER') added.push(Number((answer.output as { Attributes?: { value?: unknown } }).Attributes?.value));
      return answer;
    },
    { step: 'initialize', name: TRACE, priority: 'high' },
  );
  return events;
}

afterEach(() => {
  dynamo.middlewareStack.remove(TRACE);
});

async function world() {
  const site = await createSite();
  const member = await createUser(site.id, 'member');
  const [idea] = await seedIdeas(site.id, 1);
  return { siteId: site.id, member, ideaId: idea!.id };
}

describe('ids reserved beside the first read', () => {
  it("an argument create by a member: the counter's ADD goes out with the first read, and the argument takes that id", async () => {
    const w = await world();
    const events = trace();
    const res = await invoke<{ id: number }>(createArgument, { params: { siteId: w.siteId, ideaId: w.ideaId }, body: ARGUMENT, token: w.member.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Both sent before either is answered; the transaction after both.
    expect(events.slice(0, 2).sort()).toEqual(['send BatchGetItem', 'send UpdateItem counter argument'].sort());
    expect(events.slice(4)).toEqual(['send TransactWriteItems', 'done TransactWriteItems']);
    // The id is the one the ADD returned.
    expect(added).toEqual([res.body.id]);
  });

  it("an idea create by a member: two round trips, three requests", async () => {
    const w = await world();
    const events = trace();
    const res = await invoke<{ id: number }>(createIdea, { params: { siteId: w.siteId }, body: validIdea('reserved'), token: w.member.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(events.slice(0, 2).sort()).toEqual(['send BatchGetItem', 'send UpdateItem counter idea'].sort());
    expect(events.filter((e) => e.startsWith('send'))).toHaveLength(3);
    expect(added).toEqual([res.body.id]);
  });

  it('a service token reserves nothing ahead: it reads, then asks the counter, as before', async () => {
    const w = await world();
    const events = trace();
    const res = await invoke<{ id: number }>(createIdea, { params: { siteId: w.siteId }, body: validIdea('service'), token: SERVICE_TOKEN });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(events.indexOf('send UpdateItem counter idea')).toBeGreaterThan(events.findIndex((e) => e.startsWith('done ')));
  });

  it('a body that cannot be stored reserves no id', async () => {
    const w = await world();
    for (const [handler, params, body] of [
      [createArgument, { siteId: w.siteId, ideaId: w.ideaId }, { description: 7 }],
      [createIdea, { siteId: w.siteId }, { summary: 'no title' }],
      [createIdea, { siteId: w.siteId }, ['not', 'an', 'object']],
    ] as const) {
      const counted = await countRequests(() => invoke(handler, { params, body: body as unknown as Record<string, unknown>, token: w.member.token }));
      expect(counted.result.status).toBe(400);
      expect(counted.commands['UpdateItemCommand'], JSON.stringify(counted.commands)).toBeUndefined();
    }
  });

  it('concurrent creates never share an id', async () => {
    const w = await world();
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2
          ? invoke<{ id: number }>(createArgument, { params: { siteId: w.siteId, ideaId: w.ideaId }, body: ARGUMENT, token: w.member.token })
          : invoke<{ id: number }>(createIdea, { params: { siteId: w.siteId }, body: validIdea(`c${i}`), token: w.member.token }),
      ),
    );
    expect(made.every((r) => r.status === 201)).toBe(true);
    const argumentIds = made.filter((_, i) => i % 2).map((r) => r.body.id);
    const ideaIds = made.filter((_, i) => !(i % 2)).map((r) => r.body.id);
    expect(new Set(argumentIds).size).toBe(argumentIds.length);
    expect(new Set(ideaIds).size).toBe(ideaIds.length);
  });

  it("a reservation that failed is the create's failure: one ADD, no second one, the standard 500 body, nothing written", async () => {
    const w = await world();
    const events = trace();
    const name = 'testFailFirstCounterAdd';
    let failed = false;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (!failed && String((context as { commandName?: string }).commandName) === 'UpdateItemCommand') {
          failed = true;
          throw Object.assign(new Error('injected: the counter is unreachable'), { name: 'InternalServerError', $fault: 'server' });
        }
        return next(args);
      },
      // Outside the store's retry policy: the reservation fails as after all its retries.
      { step: 'initialize', name, priority: 'high' },
    );
    try {
      const counted = await countRequests(() =>
        invoke<{ status: number; error: string; message: string }>(createArgument, { params: { siteId: w.siteId, ideaId: w.ideaId }, body: ARGUMENT, token: w.member.token }),
      );
      expect(failed).toBe(true);
      expect(counted.result.status).toBe(500);
      expect(counted.result.body).toMatchObject({ status: 500, error: 'InternalError' });
      expect(JSON.stringify(counted.result.body)).not.toContain('injected');
      // The ADD the store's policy already retried is not asked again, and nothing was written.
      expect(counted.commands).toEqual({ BatchGetItemCommand: 1, UpdateItemCommand: 1 });
      expect(events.filter((e) => e.startsWith('send'))).toEqual(['send BatchGetItem', 'send UpdateItem counter argument'].sort((a, b) => events.indexOf(a) - events.indexOf(b)));
    } finally {
      dynamo.middlewareStack.remove(name);
    }
  });
});
