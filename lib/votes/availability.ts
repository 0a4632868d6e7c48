/**
 * Whether voting is open right now. Derived from `config.votes` and an injected clock, never stored
 * (spec "States and transitions"): `isActive` true/false decides on its own; null lets the
 * `isActiveFrom`..`isActiveTo` window decide.
 */
import { forbidden } from '#lib/errors';
import { parseIsoInstant } from '#schemas/iso-date';
import type { Availability, VotesConfig } from '#lib/votes/types';

type WindowConfig = Pick<VotesConfig, 'isActive' | 'isActiveFrom' | 'isActiveTo'>;

export function votingAvailability(config: WindowConfig, now: Date): Availability {
  if (config.isActive === true) return { open: true };
  if (config.isActive === false) return { open: false, reason: 'Voting is closed on this site' };

  // isActive null: only a complete, valid window can open voting. A half-configured window is read as
  // "closed" because opening a vote by accident cannot be undone, keeping it shut can.
  const from = parseIsoInstant(config.isActiveFrom);
  const to = parseIsoInstant(config.isActiveTo);
  if (from === null || to === null) {
    return { open: false, reason: 'Voting is closed: no valid voting period (isActiveFrom, isActiveTo) is set' };
  }
  const t = now.getTime();
  // Both ends are inclusive.
  if (t < from) return { open: false, reason: `Voting is closed: it opens at ${new Date(from).toISOString()}` };
  if (t > to) return { open: false, reason: `Voting is closed: it ended at ${new Date(to).toISOString()}` };
  return { open: true };
}

/** Throws 403 Forbidden (CONTRACT: a closed feature is a 403) when voting is not open at `now`. */
export function assertVotingOpen(config: WindowConfig, now: Date): void {
  const availability = votingAvailability(config, now);
  if (!availability.open) throw forbidden(availability.reason);
}
