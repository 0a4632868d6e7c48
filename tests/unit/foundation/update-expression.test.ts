import { describe, expect, it } from 'vitest';
import { update, updateOf, withCondition } from '#lib/store/db/update';

describe('updateOf: the one update builder', () => {
  it('SETs defined fields and REMOVEs the listed ones, with positional placeholders', () => {
    expect(updateOf({ name: 'x', size: undefined, 'odd#name': 2 }, ['gone'])).toEqual({
      UpdateExpression: 'SET #u0 = :u0, #u1 = :u1 REMOVE #u2',
      ExpressionAttributeNames: { '#u0': 'name', '#u1': 'odd#name', '#u2': 'gone' },
      ExpressionAttributeValues: { ':u0': 'x', ':u1': 2 },
    });
  });

  it('REMOVE alone, and nothing at all is a programming error', () => {
    expect(updateOf({}, ['a']).UpdateExpression).toBe('REMOVE #u0');
    expect(updateOf({}, ['a'])).not.toHaveProperty('ExpressionAttributeValues');
    expect(() => updateOf({ a: undefined })).toThrow(/nothing to update/);
    expect(() => update({})).toThrow(/nothing to update/);
  });

  it('writes every clause once, in DynamoDB order, one placeholder per attribute name', () => {
    expect(
      update({
        set: { updatedAt: 't', skipped: undefined },
        setAt: [[['votes', '12'], { opinion: 'yes' }], [['votes', '13'], undefined]],
        setIfAbsent: { createdAt: 'c' },
        increment: { version: 1 },
        copy: { prevUpdatedAt: 'updatedAt' },
        add: { count: 2 },
        deleteFrom: { tags: new Set([3]) },
        remove: [['votes', '9'], 'pending'],
      }),
    ).toEqual({
      UpdateExpression:
        'SET #u0 = :u0, #u1.#u2 = :u1, #u3 = if_not_exists(#u3, :u2), #u4 = #u4 + :u3, #u5 = #u0 REMOVE #u1.#u8, #u9 ADD #u6 :u4 DELETE #u7 :u5',
      ExpressionAttributeNames: {
        '#u0': 'updatedAt',
        '#u1': 'votes',
        '#u2': '12',
        '#u3': 'createdAt',
        '#u4': 'version',
        '#u5': 'prevUpdatedAt',
        '#u6': 'count',
        '#u7': 'tags',
        '#u8': '9',
        '#u9': 'pending',
      },
      ExpressionAttributeValues: { ':u0': 't', ':u1': { opinion: 'yes' }, ':u2': 'c', ':u3': 1, ':u4': 2, ':u5': new Set([3]) },
    });
  });

  it('keeps a condition and its placeholders beside the update', () => {
    expect(withCondition(updateOf({ a: 1 }), { expression: '#o = :o', names: { '#o': 'owner' }, values: { ':o': 7 } })).toEqual({
      UpdateExpression: 'SET #u0 = :u0',
      ConditionExpression: '#o = :o',
      ExpressionAttributeNames: { '#u0': 'a', '#o': 'owner' },
      ExpressionAttributeValues: { ':u0': 1, ':o': 7 },
    });
  });
});

describe('withoutKeys: the one key stripper', () => {
  it('drops every key attribute the table definition declares, and nothing else', async () => {
    const { withoutKeys } = await import('#lib/store/db/codec');
    const item = { PK: 'SITE#1', SK: 'USER#1', GSI1PK: 'a', GSI1SK: 'b', GSI2PK: 'c', GSI2SK: 'd', id: 1, pk: 'kept', name: 'x' };
    expect(withoutKeys(item)).toEqual({ id: 1, pk: 'kept', name: 'x' });
  });
});
