import { describe, expect, it } from 'vitest';
import { assertVotingOpen, votingAvailability } from '#lib/votes/availability';
import { parseIsoInstant } from '#schemas/iso-date';
import { expectApiError, votesConfig } from './helpers';

const now = new Date('2024-06-15T12:00:00.000Z');
const windowed = (isActiveFrom: string | null | undefined, isActiveTo: string | null | undefined) =>
  votesConfig({ isActive: null, isActiveFrom, isActiveTo });

describe('votingAvailability', () => {
  it('is closed when isActive is false, whatever the dates say', () => {
    const config = votesConfig({ isActive: false, isActiveFrom: '2024-01-01', isActiveTo: '2024-12-31' });
    expect(votingAvailability(config, now)).toEqual({ open: false, reason: expect.stringMatching(/closed/) });
  });

  it('is open when isActive is true, whatever the dates say', () => {
    const config = votesConfig({ isActive: true, isActiveFrom: '2030-01-01', isActiveTo: '2030-12-31' });
    expect(votingAvailability(config, now)).toEqual({ open: true });
  });

  it('is open within the window when isActive is null', () => {
    expect(votingAvailability(windowed('2024-06-01T00:00:00Z', '2024-06-30T23:59:59Z'), now)).toEqual({ open: true });
  });

  it('includes both ends of the window', () => {
    const at = '2024-06-15T12:00:00.000Z';
    expect(votingAvailability(windowed(at, '2024-07-01'), now).open).toBe(true);
    expect(votingAvailability(windowed('2024-06-01', at), now).open).toBe(true);
    expect(votingAvailability(windowed(at, at), now).open).toBe(true);
  });

  it('is closed before the window and says when it opens', () => {
    const result = votingAvailability(windowed('2024-06-15T12:00:00.001Z', '2024-07-01'), now);
    expect(result).toEqual({ open: false, reason: 'Voting is closed: it opens at 2024-06-15T12:00:00.001Z' });
  });

  it('is closed after the window and says when it ended', () => {
    const result = votingAvailability(windowed('2024-06-01', '2024-06-15T11:59:59.999Z'), now);
    expect(result).toEqual({ open: false, reason: 'Voting is closed: it ended at 2024-06-15T11:59:59.999Z' });
  });

  it.each([
    ['from missing', undefined, '2024-12-31'],
    ['to missing', '2024-01-01', undefined],
    ['from null', null, '2024-12-31'],
    ['to null', '2024-01-01', null],
    ['both missing', undefined, undefined],
    ['from unparsable', 'soon', '2024-12-31'],
    ['to unparsable', '2024-01-01', 'later'],
    ['to not a real day', '2024-01-01', '2024-02-30'],
    ['to in a non-ISO form', '2024-01-01', 'December 31, 2024'],
    ['from empty', '', '2024-12-31'],
  ])('is closed when isActive is null and %s', (_name, from, to) => {
    const result = votingAvailability(windowed(from, to), now);
    expect(result).toEqual({ open: false, reason: expect.stringMatching(/no valid voting period/) });
  });

  it('is closed when the window is inverted', () => {
    expect(votingAvailability(windowed('2024-12-31', '2024-01-01'), now).open).toBe(false);
  });

  it('reads the window in UTC, with offsets honoured', () => {
    // 14:00+02:00 is 12:00Z: the window starts exactly now.
    expect(votingAvailability(windowed('2024-06-15T14:00:00+02:00', '2024-06-16'), now).open).toBe(true);
    expect(votingAvailability(windowed('2024-06-15T14:00:01+02:00', '2024-06-16'), now).open).toBe(false);
    // No offset: UTC, independent of the machine's time zone.
    expect(votingAvailability(windowed('2024-06-15T12:00', '2024-06-16'), now).open).toBe(true);
    expect(votingAvailability(windowed('2024-06-15T12:01', '2024-06-16'), now).open).toBe(false);
  });
});

describe('assertVotingOpen', () => {
  it('does nothing when voting is open', () => {
    expect(() => assertVotingOpen(votesConfig({ isActive: true }), now)).not.toThrow();
  });

  it('throws 403 Forbidden with the reason when voting is closed', () => {
    const err = expectApiError(() => assertVotingOpen(votesConfig({ isActive: false }), now), 403, 'Forbidden');
    expect(err.message).toMatch(/^Voting is closed/);
    expectApiError(() => assertVotingOpen(windowed('2024-07-01', '2024-08-01'), now), 403, 'Forbidden');
    expectApiError(() => assertVotingOpen(windowed(null, null), now), 403, 'Forbidden');
  });
});

describe('parseIsoInstant', () => {
  it.each([
    ['2024-06-15', Date.UTC(2024, 5, 15)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2024-06-15T12:30', Date.UTC(2024, 5, 15, 12, 30)],
    ['2024-06-15T12:30:15.250Z', Date.UTC(2024, 5, 15, 12, 30, 15, 250)],
    ['2024-06-15T12:30:00-01:30', Date.UTC(2024, 5, 15, 14, 0)],
    // A space for the `T` (RFC 3339 allows it; it is what people type), read as UTC like `T` without offset.
    ['2024-06-15 12:00', Date.UTC(2024, 5, 15, 12, 0)],
  ])('reads %s', (text, ms) => {
    expect(parseIsoInstant(text)).toBe(ms);
  });

  it.each(['', '2024', '2023-02-29', '2024-13-01', '2024-06-15T24:00', '2024-06-15  12:00', 'June 15, 2024', '15-06-2024', 'x'])(
    'rejects %j',
    (text) => {
      expect(parseIsoInstant(text)).toBeNull();
    },
  );

  it('rejects non-strings', () => {
    expect(parseIsoInstant(null)).toBeNull();
    expect(parseIsoInstant(1718452800000)).toBeNull();
  });
});
