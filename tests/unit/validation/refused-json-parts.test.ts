/**
 * The scans of parsed JSON for what we refuse anywhere (lib/validation/reserved-keys.ts): reserved keys
 * (`__proto__`, `constructor`, `prototype`) and text that is not well-formed UTF-16. Each finds every
 * refused part with its path, at most 20, and does not enter a refused key's value. The order: an
 * object's own refused keys first, then what its other values hold, each in document order.
 */
import { describe, expect, it } from 'vitest';
import { malformedTextPaths, reservedKeyPaths } from '#lib/validation/reserved-keys';

const LONE = '\ud800';
const reservedMessage = (key: string) => `"${key}" is a reserved name and cannot be used as a key`;

describe('the reserved-key scan', () => {
  it("finds each reserved key, at any depth, in arrays too, with its path: an object's own first, then its values' in order", () => {
    const value = JSON.parse('{"a":{"constructor":1},"list":[{"x":2},{"prototype":3}],"__proto__":{"b":4},"ok":"__proto__"}');
    expect(reservedKeyPaths(value)).toEqual([
      { path: '__proto__', message: reservedMessage('__proto__') },
      { path: 'a.constructor', message: reservedMessage('constructor') },
      { path: 'list[1].prototype', message: reservedMessage('prototype') },
    ]);
  });

  it('finds nothing in plain values, text that names a reserved key, or keys that only resemble one', () => {
    for (const value of [null, 3, 'constructor', true, [], {}, { Constructor: 1, proto: 2, __proto: 3, prototypes: [4] }]) expect(reservedKeyPaths(value)).toEqual([]);
  });

  it('names each refused part once, also under a key spelt "undefined"', () => {
    expect(reservedKeyPaths(JSON.parse('{"undefined":{"constructor":1},"b":[{"prototype":2}]}')).map((d) => d.path)).toEqual(['undefined.constructor', 'b[0].prototype']);
  });

  it("does not enter a reserved key's value", () => {
    expect(reservedKeyPaths(JSON.parse('{"__proto__":{"constructor":{"prototype":1}}}')).map((d) => d.path)).toEqual(['__proto__']);
  });

  it('names at most 20, the first ones, also when one object holds more', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ [`k${i}`]: JSON.parse('{"__proto__":1}') }));
    const paths = reservedKeyPaths(many).map((d) => d.path);
    expect(paths).toEqual(Array.from({ length: 20 }, (_, i) => `[${i}].k${i}.__proto__`));
    const wide = JSON.parse(`{${Array.from({ length: 25 }, (_, i) => `"a${i}":{"__proto__":1,"constructor":2}`).join(',')}}`);
    expect(reservedKeyPaths(wide)).toHaveLength(20);
    expect(reservedKeyPaths(JSON.parse('{"x":{"__proto__":1,"constructor":2,"prototype":3}}')).map((d) => d.path)).toEqual(['x.__proto__', 'x.constructor', 'x.prototype']);
  });

  it('walks a hostile depth without overflowing the stack', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(100_000)}{"constructor":1}${']'.repeat(100_000)}`);
    expect(reservedKeyPaths(deep)).toHaveLength(1);
  });
});

describe('the malformed-text scan', () => {
  it('finds strings and keys with a lone surrogate, with their paths (malformed keys first, then the values in order)', () => {
    const value = { a: `x${LONE}`, b: ['fine', `${LONE}`], [`k${LONE}`]: 'v', ok: '😀' };
    expect(malformedTextPaths(value)).toEqual([
      { path: 'k\ufffd', message: 'the key is not well-formed UTF-16 text (it holds a lone surrogate)' },
      { path: 'a', message: 'is not well-formed UTF-16 text (it holds a lone surrogate)' },
      { path: 'b[1]', message: 'is not well-formed UTF-16 text (it holds a lone surrogate)' },
    ]);
  });

  it('finds nothing in well-formed text, numbers, booleans and null', () => {
    expect(malformedTextPaths({ a: 'Bänke 😀', b: [1, true, null], c: { d: 'ok' } })).toEqual([]);
    expect(malformedTextPaths(`x${LONE}`)).toEqual([{ path: '', message: 'is not well-formed UTF-16 text (it holds a lone surrogate)' }]);
  });

  it('does not enter the value of a malformed key, and names at most 20', () => {
    expect(malformedTextPaths({ [`k${LONE}`]: { inner: LONE } }).map((d) => d.path)).toEqual(['k\ufffd']);
    expect(malformedTextPaths(Array.from({ length: 30 }, () => LONE))).toHaveLength(20);
    const manyKeys = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}${LONE}`, 1]));
    expect(malformedTextPaths(manyKeys).map((d) => d.path)).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}\ufffd`));
  });
});
