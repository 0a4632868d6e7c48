import { describe, expect, it } from 'vitest';
import { assertDescriptionLength, assertReplyParent, charCount } from '#lib/arguments/rules';
import { withDefaults } from '#lib/sites/config-defaults';
import { ApiError } from '#lib/errors';

const fails = (fn: () => void, path: string) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).details?.[0]?.path).toBe(path);
    return;
  }
  throw new Error('expected a validation error');
};

describe('argument rules', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(charCount('abc')).toBe(3);
    expect(charCount('🙂🙂')).toBe(2);
  });

  it('checks the description against the site lengths (defaults 30..500)', () => {
    const defaults = withDefaults({});
    fails(() => assertDescriptionLength('x'.repeat(29), defaults), 'description');
    expect(() => assertDescriptionLength('x'.repeat(30), defaults)).not.toThrow();
    expect(() => assertDescriptionLength('x'.repeat(500), defaults)).not.toThrow();
    fails(() => assertDescriptionLength('x'.repeat(501), defaults), 'description');
    const custom = withDefaults({ arguments: { descriptionMinLength: 2, descriptionMaxLength: 3 } });
    expect(() => assertDescriptionLength('🙂🙂🙂', custom)).not.toThrow();
    fails(() => assertDescriptionLength('abcd', custom), 'description');
  });

  it('allows replies to top-level arguments only', () => {
    expect(() => assertReplyParent(1, 2, { parentId: null })).not.toThrow();
    fails(() => assertReplyParent(1, 2, { parentId: 5 }), 'parentId');
    fails(() => assertReplyParent(1, 2, undefined), 'parentId');
  });
});
