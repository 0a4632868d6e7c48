/**
 * Strict reading of the ISO-8601 dates in `votes.isActiveFrom` / `isActiveTo`: the ONE parser that both
 * the site config schema (what PUT accepts) and the voting rule (lib/votes/availability.ts) use, so a
 * date the config takes is always a date the rule understands (`"2024-06-15 12:00"` used to
 * be accepted by the config and rejected by the rule, leaving voting silently closed).
 *
 * `Date.parse` alone is too lenient for a voting window: it accepts `2024-02-30` (as 1 March),
 * `March 3, 2024` and a bare `2024`, and reads an offset-less date-time in the server's time zone.
 * A window that opens on a silently shifted day is worse than a window that stays closed, so anything
 * that is not a real calendar date in ISO form is rejected (the caller treats it as "no window").
 */

// `T` or a space between date and time (RFC 3339 allows the space; it is what people type).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Milliseconds since the epoch, or null when `value` is not a valid ISO-8601 date or date-time.
 * A date alone means 00:00 UTC of that day; a date-time without an offset is read as UTC (Lambda's
 * clock is UTC, and the result must not depend on the machine's time zone).
 */
export function parseIsoInstant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = ISO.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  // Reject days that do not exist (Feb 30) instead of letting Date roll them over.
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return null;
  }
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || (s !== undefined && Number(s) > 59))) return null;
  if (offset !== undefined && offset !== 'Z') {
    const [oh, om] = offset.slice(1).split(':').map(Number);
    if ((oh ?? 0) > 23 || (om ?? 0) > 59) return null;
  }
  const normalised = value.replace(' ', 'T');
  const text = h !== undefined && offset === undefined ? `${normalised}Z` : normalised;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}
