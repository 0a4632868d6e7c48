import { describe, expect, it } from 'vitest';
import { MAX_ROUND_ENTRIES } from '#schemas/votes';
import { expectApiError, validateVoteRoundBody } from './helpers';

describe('validateVoteRoundBody', () => {
  it('accepts an array of votes in order', () => {
    expect(
      validateVoteRoundBody([
        { ideaId: 3, opinion: 'no' },
        { ideaId: 1, opinion: 'yes' },
      ]),
    ).toEqual([
      { ideaId: 3, opinion: 'no' },
      { ideaId: 1, opinion: 'yes' },
    ]);
  });

  it('accepts a single object as a round of one', () => {
    expect(validateVoteRoundBody({ ideaId: 7, opinion: 'no' })).toEqual([{ ideaId: 7, opinion: 'no' }]);
  });

  it('defaults opinion to yes', () => {
    expect(validateVoteRoundBody([{ ideaId: 1 }, { ideaId: 2, opinion: undefined }])).toEqual([
      { ideaId: 1, opinion: 'yes' },
      { ideaId: 2, opinion: 'yes' },
    ]);
  });

  it('drops unknown keys', () => {
    expect(validateVoteRoundBody([{ ideaId: 1, opinion: 'yes', userId: 99, extra: true }])).toEqual([
      { ideaId: 1, opinion: 'yes' },
    ]);
  });

  it('accepts the largest safe integer and exactly 500 entries', () => {
    expect(validateVoteRoundBody({ ideaId: Number.MAX_SAFE_INTEGER })).toEqual([
      { ideaId: Number.MAX_SAFE_INTEGER, opinion: 'yes' },
    ]);
    const body = Array.from({ length: MAX_ROUND_ENTRIES }, (_, i) => ({ ideaId: i + 1 }));
    expect(validateVoteRoundBody(body)).toHaveLength(500);
  });

  it('accepts an opinion of 64 characters', () => {
    const opinion = 'x'.repeat(64);
    expect(validateVoteRoundBody({ ideaId: 1, opinion })).toEqual([{ ideaId: 1, opinion }]);
  });

  it.each([
    ['a string id', '12'],
    ['a digit string without leading zero', '1'],
    ['zero', 0],
    ['a negative id', -1],
    ['a fraction', 1.5],
    ['an unsafe integer', Number.MAX_SAFE_INTEGER + 1],
    ['Infinity', Infinity],
    ['NaN', NaN],
    ['null', null],
    ['a boolean', true],
    ['an object', { id: 1 }],
  ])('rejects %s as ideaId with path [i].ideaId', (_name, ideaId) => {
    expectApiError(() => validateVoteRoundBody([{ ideaId: 1 }, { ideaId }]), 400, 'ValidationError', ['[1].ideaId']);
  });

  it('rejects a missing ideaId', () => {
    const err = expectApiError(() => validateVoteRoundBody([{ opinion: 'yes' }]), 400, 'ValidationError', ['[0].ideaId']);
    expect(err.details?.[0]?.message).toBe('ideaId must be a positive integer');
  });

  it('uses [0] paths for a single object', () => {
    expectApiError(() => validateVoteRoundBody({ ideaId: 'x', opinion: '' }), 400, 'ValidationError', [
      '[0].ideaId',
      '[0].opinion',
    ]);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(65)],
    ['null', null],
    ['a number', 1],
    ['an array', ['yes']],
  ])('rejects an opinion that is %s with path [i].opinion', (_name, opinion) => {
    expectApiError(() => validateVoteRoundBody([{ ideaId: 1, opinion }]), 400, 'ValidationError', ['[0].opinion']);
  });

  it('reports one detail per failing field, in body order', () => {
    expectApiError(
      () => validateVoteRoundBody([{ ideaId: -1.5, opinion: '' }, { ideaId: 2 }, { ideaId: 'a' }]),
      400,
      'ValidationError',
      ['[0].ideaId', '[0].opinion', '[2].ideaId'],
    );
  });

  it('rejects an entry that is not an object with path [i]', () => {
    expectApiError(() => validateVoteRoundBody([{ ideaId: 1 }, 5, null]), 400, 'ValidationError', ['[1]', '[2]']);
  });

  it('rejects an empty array', () => {
    expectApiError(() => validateVoteRoundBody([]), 400, 'ValidationError', ['']);
  });

  it('rejects more than 500 entries', () => {
    const body = Array.from({ length: MAX_ROUND_ENTRIES + 1 }, (_, i) => ({ ideaId: i + 1 }));
    const err = expectApiError(() => validateVoteRoundBody(body), 400, 'ValidationError', ['']);
    expect(err.message).toMatch(/at most 500/);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 12],
    ['a string', '[{"ideaId":1}]'],
  ])('rejects a body that is %s', (_name, body) => {
    expectApiError(() => validateVoteRoundBody(body), 400, 'ValidationError', ['']);
  });
});
