import { describe, expect, it } from 'vitest';
import {
  isSiteEntry,
  readForSite,
  siteSpecificFields,
  valueForSite,
  writeForSite,
} from '#lib/users/site-specific';

const sorted = (set: Set<string>) => [...set].sort();

describe('isSiteEntry', () => {
  it('recognises exactly {value, siteId} with an integer siteId', () => {
    expect(isSiteEntry({ value: 'x', siteId: 3 })).toBe(true);
    expect(isSiteEntry({ siteId: 3, value: null })).toBe(true);
    expect(isSiteEntry({ value: undefined, siteId: -1 })).toBe(true);
  });

  it.each([
    ['a missing value key', { siteId: 3 }],
    ['a missing siteId', { value: 'x' }],
    ['a string siteId', { value: 'x', siteId: '3' }],
    ['a fractional siteId', { value: 'x', siteId: 1.5 }],
    ['a NaN siteId', { value: 'x', siteId: Number.NaN }],
    ['an extra key', { value: 'x', siteId: 3, label: 'y' }],
    ['an array', ['x', 3]],
    ['null', null],
    ['a string', 'x'],
  ])('refuses %s', (_name, entry) => {
    expect(isSiteEntry(entry)).toBe(false);
  });

  it('refuses inherited keys', () => {
    const inherited = Object.create({ value: 'x', siteId: 3 }) as unknown;
    expect(isSiteEntry(inherited)).toBe(false);
  });
});

describe('siteSpecificFields', () => {
  it('is bio and expertise by default', () => {
    expect(sorted(siteSpecificFields(undefined))).toEqual(['bio', 'expertise']);
    expect(sorted(siteSpecificFields({}))).toEqual(['bio', 'expertise']);
    expect(sorted(siteSpecificFields({ extraData: 'nonsense' }))).toEqual(['bio', 'expertise']);
  });

  it('accepts both spellings to mark a field', () => {
    expect(
      sorted(siteSpecificFields({ extraData: { nickName: { sitespecific: true }, gender: { 'site-specific': true } } })),
    ).toEqual(['bio', 'expertise', 'gender', 'nickName']);
  });

  it('accepts both spellings to un-mark a default field', () => {
    expect(sorted(siteSpecificFields({ extraData: { bio: { sitespecific: false } } }))).toEqual(['expertise']);
    expect(sorted(siteSpecificFields({ extraData: { expertise: { 'site-specific': false } } }))).toEqual(['bio']);
  });

  it('site-specific wins when both spellings disagree', () => {
    const fields = siteSpecificFields({
      extraData: {
        a: { sitespecific: false, 'site-specific': true },
        bio: { sitespecific: true, 'site-specific': false },
      },
    });
    expect(sorted(fields)).toEqual(['a', 'expertise']);
  });

  it('ignores non-boolean options, falling back to the other spelling', () => {
    const fields = siteSpecificFields({
      extraData: {
        a: { sitespecific: 'true' },
        b: { 'site-specific': 1 },
        c: { 'site-specific': 'yes', sitespecific: true },
        bio: { sitespecific: 0 },
        d: true,
        e: { type: 'string' },
      },
    });
    expect(sorted(fields)).toEqual(['bio', 'c', 'expertise']);
  });

  it('never adds __proto__', () => {
    const config = JSON.parse('{"extraData": {"__proto__": {"sitespecific": true}}}') as unknown;
    expect(sorted(siteSpecificFields(config))).toEqual(['bio', 'expertise']);
  });
});

describe('valueForSite', () => {
  const stored = ['generic', { value: 'for 3', siteId: 3 }, { value: 'for 4', siteId: 4 }];

  it('the entry of the site wins', () => {
    expect(valueForSite(stored, 3)).toBe('for 3');
    expect(valueForSite(stored, 4)).toBe('for 4');
  });

  it('else the plain entry is the fallback, wherever it is in the array', () => {
    expect(valueForSite(stored, 5)).toBe('generic');
    expect(valueForSite([{ value: 'for 3', siteId: 3 }, 'generic'], 5)).toBe('generic');
  });

  it('else absent', () => {
    expect(valueForSite([{ value: 'for 3', siteId: 3 }], 5)).toBeUndefined();
    expect(valueForSite(undefined, 5)).toBeUndefined();
    expect(valueForSite(null, 5)).toBeUndefined();
  });

  it('a plain value serves every site', () => {
    expect(valueForSite('generic', 3)).toBe('generic');
    expect(valueForSite({ nested: true }, 3)).toEqual({ nested: true });
  });

  it('an array without site entries is one plain value, not a list of fallbacks', () => {
    expect(valueForSite(['a', 'b'], 3)).toEqual(['a', 'b']);
    expect(valueForSite([['a', 'b'], { value: ['c'], siteId: 3 }], 4)).toEqual(['a', 'b']);
  });

  it('an object that only looks like a site entry is a plain entry', () => {
    const lookalike = { value: 'x', siteId: 5, extra: 1 };
    expect(valueForSite([lookalike, { value: 'for 3', siteId: 3 }], 5)).toEqual(lookalike);
    expect(valueForSite([{ value: 'x', siteId: '5' }, { value: 'for 3', siteId: 3 }], 5)).toEqual({ value: 'x', siteId: '5' });
  });

  it('a site entry may hold null or an array', () => {
    expect(valueForSite(['generic', { value: null, siteId: 3 }], 3)).toBeNull();
    expect(valueForSite(['generic', { value: ['a'], siteId: 3 }], 3)).toEqual(['a']);
  });

  it('the first entry of a site wins over a duplicate', () => {
    expect(valueForSite([{ value: 'first', siteId: 3 }, { value: 'second', siteId: 3 }], 3)).toBe('first');
  });
});

describe('readForSite', () => {
  const fields = new Set(['bio', 'expertise', 'nickName']);
  const stored = {
    bio: ['generic bio', { value: 'bio on 3', siteId: 3 }],
    expertise: [{ value: 'expert on 4', siteId: 4 }],
    nickName: 'Nick',
    shared: [{ value: 'raw', siteId: 3 }],
    gender: 'x',
  };

  it('shows the site view of site-specific fields and the rest as stored', () => {
    expect(readForSite(stored, 3, fields)).toEqual({
      bio: 'bio on 3',
      nickName: 'Nick',
      shared: 'raw',
      gender: 'x',
    });
    expect(readForSite(stored, 4, fields)).toEqual({
      bio: 'generic bio',
      expertise: 'expert on 4',
      nickName: 'Nick',
      gender: 'x',
    });
  });

  it("never shows another site's entry, even of a field this site does not declare site-specific", () => {
    const container = { bio: ['fallback', { value: 'secret of 3', siteId: 3 }], phone: [{ value: 'only 3', siteId: 3 }] };
    expect(readForSite(container, 4, new Set())).toEqual({ bio: 'fallback' });
    expect(readForSite(container, 3, new Set())).toEqual({ bio: 'secret of 3', phone: 'only 3' });
  });

  it('an empty or odd stored value reads as {}', () => {
    expect(readForSite({}, 3, fields)).toEqual({});
    expect(readForSite(null as unknown as Record<string, unknown>, 3, fields)).toEqual({});
  });

  it('does not change the stored object', () => {
    const copy = structuredClone(stored);
    readForSite(stored, 3, fields);
    expect(stored).toEqual(copy);
  });

  it('drops __proto__', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": 1}, "bio": "b"}') as Record<string, unknown>;
    const view = readForSite(hostile, 3, fields);
    expect(Object.keys(view)).toEqual(['bio']);
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
  });
});

describe('writeForSite', () => {
  const fields = new Set(['bio', 'expertise']);

  it("a plain write sets the fallback and keeps other sites' entries (drops only this site's own)", () => {
    const stored = { phone: ['old', { value: 'of 3', siteId: 3 }, { value: 'of 4', siteId: 4 }] };
    expect(writeForSite(stored, { phone: 'new' }, 4, fields)).toEqual({ phone: ['new', { value: 'of 3', siteId: 3 }] });
    expect(writeForSite(stored, { phone: null }, 4, fields)).toEqual({ phone: [{ value: 'of 3', siteId: 3 }] });
    expect(writeForSite({ phone: [{ value: 'of 4', siteId: 4 }] }, { phone: 'new' }, 4, fields)).toEqual({ phone: 'new' });
    expect(writeForSite({ phone: [{ value: 'of 4', siteId: 4 }] }, { phone: null }, 4, fields)).toEqual({});
  });

  it('adds this site entry to a missing field', () => {
    expect(writeForSite({}, { bio: 'mine' }, 3, fields)).toEqual({ bio: [{ value: 'mine', siteId: 3 }] });
  });

  it('replaces only this site entry in place, keeping other sites and the fallback', () => {
    const stored = { bio: ['generic', { value: 'old 3', siteId: 3 }, { value: 'on 4', siteId: 4 }] };
    expect(writeForSite(stored, { bio: 'new 3' }, 3, fields)).toEqual({
      bio: ['generic', { value: 'new 3', siteId: 3 }, { value: 'on 4', siteId: 4 }],
    });
  });

  it('appends this site entry when other sites have one', () => {
    const stored = { bio: [{ value: 'on 4', siteId: 4 }] };
    expect(writeForSite(stored, { bio: 'on 3' }, 3, fields)).toEqual({
      bio: [{ value: 'on 4', siteId: 4 }, { value: 'on 3', siteId: 3 }],
    });
  });

  it('keeps a plain value as the fallback when the field became site-specific (spec rules 5, 6)', () => {
    const next = writeForSite({ expertise: 'generic' }, { expertise: 'on 3' }, 3, fields);
    expect(next).toEqual({ expertise: ['generic', { value: 'on 3', siteId: 3 }] });
    expect(readForSite(next, 3, fields)).toEqual({ expertise: 'on 3' });
    expect(readForSite(next, 9, fields)).toEqual({ expertise: 'generic' });
  });

  it('keeps a plain array value whole as the fallback', () => {
    const next = writeForSite({ bio: ['a', 'b'] }, { bio: ['c'] }, 3, fields);
    expect(next).toEqual({ bio: [['a', 'b'], { value: ['c'], siteId: 3 }] });
    expect(readForSite(next, 9, fields)).toEqual({ bio: ['a', 'b'] });
  });

  it('null removes only this site entry', () => {
    const stored = { bio: ['generic', { value: 'on 3', siteId: 3 }, { value: 'on 4', siteId: 4 }] };
    expect(writeForSite(stored, { bio: null }, 3, fields)).toEqual({ bio: ['generic', { value: 'on 4', siteId: 4 }] });
  });

  it('null on the last site entry collapses to the plain fallback', () => {
    expect(writeForSite({ bio: ['generic', { value: 'on 3', siteId: 3 }] }, { bio: null }, 3, fields)).toEqual({
      bio: 'generic',
    });
    expect(writeForSite({ bio: [['a'], { value: 'on 3', siteId: 3 }] }, { bio: null }, 3, fields)).toEqual({
      bio: ['a'],
    });
  });

  it('collapsing keeps the fallback every site read before, even with several plain entries', () => {
    const stored = { bio: ['first', 'second', { value: 'on 3', siteId: 3 }] };
    const next = writeForSite(stored, { bio: null }, 3, fields);
    expect(next).toEqual({ bio: 'first' });
    expect(readForSite(next, 9, fields)).toEqual(readForSite(stored, 9, fields));
  });

  it('null with no fallback and no other site removes the field', () => {
    expect(writeForSite({ bio: [{ value: 'on 3', siteId: 3 }], x: 1 }, { bio: null }, 3, fields)).toEqual({ x: 1 });
    expect(writeForSite({}, { bio: null }, 3, fields)).toEqual({});
  });

  it('null does not remove the plain fallback when this site has no entry', () => {
    expect(writeForSite({ bio: 'generic' }, { bio: null }, 3, fields)).toEqual({ bio: 'generic' });
  });

  it('drops duplicate entries of this site', () => {
    const stored = { bio: [{ value: 'a', siteId: 3 }, 'g', { value: 'b', siteId: 3 }] };
    expect(writeForSite(stored, { bio: 'new' }, 3, fields)).toEqual({ bio: [{ value: 'new', siteId: 3 }, 'g'] });
  });

  it('wraps a value that looks like a site entry, so it cannot write for another site', () => {
    const next = writeForSite({}, { bio: [{ value: 'evil', siteId: 4 }] }, 3, fields);
    expect(next).toEqual({ bio: [{ value: [{ value: 'evil', siteId: 4 }], siteId: 3 }] });
    expect(readForSite(next, 4, fields)).toEqual({});
  });

  it('sets other fields plainly; null removes them', () => {
    const stored = { nickName: 'old', gender: 'x', keep: 1 };
    expect(writeForSite(stored, { nickName: 'new', gender: null, added: [1] }, 3, fields)).toEqual({
      nickName: 'new',
      keep: 1,
      added: [1],
    });
  });

  it('undefined in the patch means absent', () => {
    expect(writeForSite({ bio: 'g', a: 1 }, { bio: undefined, a: undefined }, 3, fields)).toEqual({ bio: 'g', a: 1 });
  });

  it('round trip: what a site writes is what it reads, other sites unaffected', () => {
    let stored: Record<string, unknown> = { bio: 'generic', nickName: 'N' };
    stored = writeForSite(stored, { bio: 'on 3' }, 3, fields);
    stored = writeForSite(stored, { bio: 'on 4' }, 4, fields);
    stored = writeForSite(stored, { bio: 'on 3 again' }, 3, fields);
    expect(readForSite(stored, 3, fields)).toEqual({ bio: 'on 3 again', nickName: 'N' });
    expect(readForSite(stored, 4, fields)).toEqual({ bio: 'on 4', nickName: 'N' });
    expect(readForSite(stored, 5, fields)).toEqual({ bio: 'generic', nickName: 'N' });
  });

  it('does not change its inputs', () => {
    const stored = { bio: ['g', { value: 'on 3', siteId: 3 }] };
    const patch = { bio: 'x' };
    const storedCopy = structuredClone(stored);
    writeForSite(stored, patch, 3, fields);
    expect(stored).toEqual(storedCopy);
    expect(patch).toEqual({ bio: 'x' });
  });

  it('never stores __proto__', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}') as Record<string, unknown>;
    const next = writeForSite({}, patch, 3, new Set(['__proto__']));
    expect(Object.keys(next)).toEqual(['a']);
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
