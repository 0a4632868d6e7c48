/**
 * The site config and the voting rule read `votes.isActiveFrom` / `isActiveTo` with ONE
 * parser (schemas/iso-date.ts). Whatever date the config accepts, the rule understands, and what the
 * rule would not understand the config refuses with a 400 instead of leaving voting silently closed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { siteConfigSchema } from '#schemas/site-config';
import { parseIsoInstant } from '#schemas/iso-date';
import { votingAvailability } from '#lib/votes/availability';
import { votesConfig } from '../votes/helpers.ts';

const accepts = (date: string) => siteConfigSchema.safeParse({ votes: { isActiveFrom: date } }).success;

describe('voting dates: one parser for config and rule', () => {
  it.each(['2024-06-15 12:00', '2024-06-15T12:00', '2024-06-15', '2024-06-15T12:00:00Z', '2024-06-15T12:00:00+02:00'])(
    '%s: accepted by the config and opens voting at that instant',
    (date) => {
      expect(accepts(date)).toBe(true);
      const opensAt = parseIsoInstant(date)!;
      const config = votesConfig({ isActive: null, isActiveFrom: date, isActiveTo: '2999-01-01' });
      expect(votingAvailability(config, new Date(opensAt - 1)).open).toBe(false);
      expect(votingAvailability(config, new Date(opensAt)).open).toBe(true);
    },
  );

  it.each(['June 15, 2024', '2024-02-30', '2024', '15/06/2024 12:00', 'tomorrow'])('%s: refused by the config (Date.parse would take some)', (date) => {
    expect(accepts(date)).toBe(false);
  });

  it('any string: the config accepts it exactly when the rule reads it', () => {
    const dateLike = fc.oneof(
      fc.string(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 16).replace('T', ' ')),
      fc.date({ noInvalidDate: true }).map((d) => d.toString()),
    );
    fc.assert(fc.property(dateLike, (date) => accepts(date) === (parseIsoInstant(date) !== null)));
  });
});
