import { describe, expect, it } from 'vitest';
import { updateOf, withCondition } from '#lib/store/db/update';

describe('updateOf: the one update builder', () => {
  it('SETs defined fields and REMOVEs the listed ones, with positional placeholders', () => {
    expect(updateOf({ name: 'x', size: undefined, 'odd#name': 2 }, ['gone'])).toEqual({
      UpdateExpression: 'SET #u0 = :u0, #u1 = :u1 REMOVE #r0',
      ExpressionAttributeNames: { '#u0': 'name', '#u1': 'odd#name', '#r0': 'gone' },
      ExpressionAttributeValues: { ':u0': 'x', ':u1': 2 },
    });
  });

  it('REMOVE alone, and nothing at all is a programming error', () => {
    expect(updateOf({}, ['a']).UpdateExpression).toBe('REMOVE #r0');
    expect(() => updateOf({ a: undefined })).toThrow(/nothing to update/);
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
