/** Day arithmetic of the lifecycle rules, on ISO instants (all UTC). */
const DAY_MS = 86_400_000;

export const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/** An ISO instant from a config date (`2026-05-01`, `2026-05-01T12:00:00+02:00`), or null when it is none. */
export function instantOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The UTC day of an instant: activity is recorded at most once per day per user. */
export const dayOf = (iso: string): string => iso.slice(0, 10);

export const earliest = (...instants: (string | null | undefined)[]): string | null =>
  instants.filter((i): i is string => typeof i === 'string').sort()[0] ?? null;
