import { describe, expect, it } from 'vitest';
import { firstUnstorablePart, fitsInItem, isStorableNumber, itemBytes, MAX_ITEM_BYTES } from '#lib/store/db/storable';

describe('what the table can store', () => {
  it('numbers: safe integers and doubles, none below 1e-130 in size', () => {
    for (const n of [0, -0, 1, -1.5, 1e-130, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0.1]) expect(isStorableNumber(n), String(n)).toBe(true);
    for (const n of [2 ** 53, 1e200, -1e20, 1e-131, 5e-324, Number.NaN, Infinity]) expect(isStorableNumber(n), String(n)).toBe(false);
  });

  it('names the first unstorable part of a value, without recursion', () => {
    expect(firstUnstorablePart({ a: [1, { b: 'x' }] }, 'v', 3)).toBeUndefined();
    expect(firstUnstorablePart({ a: [1, { b: 'x' }] }, 'v', 2)?.path).toBe('v.a[1]');
    expect(firstUnstorablePart({ a: { '': 1 } }, 'v', 5)?.path).toBe('v.a');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(firstUnstorablePart(deep, 'v', 31)?.message).toBe('is nested more than 31 levels deep');
  });

  it('counts item size as DynamoDB documents it: names, UTF-8 strings, numbers by digits, container overhead', () => {
    expect(itemBytes({ PK: 'SITE#1' })).toBe(2 + 6);
    expect(itemBytes({ n: 12345 })).toBe(1 + 4);
    expect(itemBytes({ s: 'é🙂' })).toBe(1 + 6);
    expect(itemBytes({ m: { ab: true, c: null } })).toBe(1 + 3 + (1 + 2 + 1) + (1 + 1 + 1));
    expect(itemBytes({ l: ['x', 1] })).toBe(1 + 3 + (1 + 1) + (1 + 2));
    expect(itemBytes({ gone: undefined })).toBe(0);
    // Binary: its length (a tile of 256 hashes is 8 KiB, not a map of 8,192 numbers).
    expect(itemBytes({ data: Buffer.alloc(8192) })).toBe(4 + 8192);
    expect(itemBytes({ b: new Uint8Array(3) })).toBe(1 + 3);
    expect(fitsInItem({ big: 'x'.repeat(300_000) })).toBe(true);
    expect(fitsInItem({ big: 'x'.repeat(MAX_ITEM_BYTES) })).toBe(false);
  });
});
