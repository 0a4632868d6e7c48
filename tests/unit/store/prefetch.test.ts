/**
 * The request's first read (lib/store/db/prefetch.ts, lib/store/db/read.ts) with DynamoDB as a double: one
 * BatchGet for every plan, items served once, consistency respected, absent keys remembered as absent,
 * and nothing shared between requests or outside one.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const dynamo = vi.hoisted(() => ({
  items: new Map<string, Record<string, unknown>>(),
  batches: [] as Array<{ keys: string[]; consistent: boolean }>,
  gets: [] as Array<{ key: string; consistent: boolean }>,
}));
const idOf = (key: { PK: string; SK: string }) => `${key.PK}|${key.SK}`;

vi.mock('#lib/store/db/batch', () => ({
  batchGet: vi.fn(async (keys: Array<{ PK: string; SK: string }>, options: { consistentRead?: boolean } = {}) => {
    dynamo.batches.push({ keys: keys.map(idOf), consistent: options.consistentRead === true });
    return keys.map((k) => dynamo.items.get(idOf(k))).filter((item) => item !== undefined);
  }),
}));
vi.mock('#lib/store/db/client', () => ({
  TABLE: 't',
  doc: {
    send: vi.fn(async (command: { input: { Key: { PK: string; SK: string }; ConsistentRead?: boolean } }) => {
      dynamo.gets.push({ key: idOf(command.input.Key), consistent: command.input.ConsistentRead === true });
      return { Item: dynamo.items.get(idOf(command.input.Key)) };
    }),
  },
}));

const { prefetch, withPrefetchScope } = await import('#lib/store/db/prefetch');
const { getItem, getItems } = await import('#lib/store/db/read');

const key = (sk: string) => ({ PK: 'SITE#1', SK: sk });
const item = (sk: string) => ({ ...key(sk), value: sk });

beforeEach(() => {
  dynamo.items = new Map([['SITE#1|SITE', item('SITE')], ['SITE#1|USER#1', item('USER#1')], ['SITE#1|BALLOT#1', item('BALLOT#1')]]);
  dynamo.batches = [];
  dynamo.gets = [];
});

describe('prefetch', () => {
  it('reads every plan in one BatchGet, consistently when one plan asks, and serves each item once', async () => {
    await withPrefetchScope(async () => {
      await prefetch([{ keys: [key('SITE'), key('USER#1')], consistent: false }, undefined, { keys: [key('BALLOT#1'), key('IDEMP#x'), key('SITE')], consistent: true }]);
      expect(dynamo.batches).toEqual([{ keys: ['SITE#1|SITE', 'SITE#1|USER#1', 'SITE#1|BALLOT#1', 'SITE#1|IDEMP#x'], consistent: true }]);
      expect(await getItem(key('SITE'))).toEqual(item('SITE'));
      // An absent key was read too: absent, without a request.
      expect(await getItem(key('IDEMP#x'), { consistent: true })).toBeUndefined();
      expect(dynamo.gets).toEqual([]);
      // Served once: the next read of the same key goes to DynamoDB (a re-plan sees newer state).
      expect(await getItem(key('SITE'))).toEqual(item('SITE'));
      expect(dynamo.gets).toEqual([{ key: 'SITE#1|SITE', consistent: false }]);
      // getItems takes what is left and reads the rest in one BatchGet.
      expect(await getItems([key('USER#1'), key('BALLOT#1'), key('IDEA#9')])).toEqual([item('USER#1'), item('BALLOT#1')]);
      expect(dynamo.batches.at(-1)).toEqual({ keys: ['SITE#1|IDEA#9'], consistent: false });
    });
  });

  it('a consistent read never takes what was read eventually consistent', async () => {
    await withPrefetchScope(async () => {
      await prefetch([{ keys: [key('SITE'), key('BALLOT#1')], consistent: false }]);
      await getItem(key('BALLOT#1'), { consistent: true });
      expect(dynamo.gets).toEqual([{ key: 'SITE#1|BALLOT#1', consistent: true }]);
    });
  });

  it('one key is a GetItem; nothing is shared between requests, nor prefetched outside one', async () => {
    await prefetch([{ keys: [key('SITE')], consistent: false }]);
    expect(dynamo.batches).toEqual([]);
    expect(dynamo.gets).toEqual([]);
    await Promise.all([
      withPrefetchScope(async () => {
        await prefetch([{ keys: [key('SITE')], consistent: false }]);
        await new Promise((r) => setTimeout(r, 5));
        expect(await getItem(key('SITE'))).toEqual(item('SITE'));
      }),
      withPrefetchScope(async () => {
        // The other request's prefetch is not this one's: its read goes to DynamoDB.
        await new Promise((r) => setTimeout(r, 1));
        await getItem(key('SITE'));
      }),
    ]);
    // Request 1's prefetch (one key: a GetItem) and request 2's own read; request 1's read was served.
    expect(dynamo.gets.filter((g) => g.key === 'SITE#1|SITE')).toHaveLength(2);
  });
});
