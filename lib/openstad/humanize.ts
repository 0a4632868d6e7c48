/**
 * OpenStad's `createDateHumanized`: moment(date).format('LLL') with its configured locale `nl` and time
 * zone Europe/Amsterdam (openstad-api config/default.js and config/moment.js), e.g.
 * "1 maart 2023 10:30". Built from Intl's parts: Intl's own long Dutch format inserts "om" before the
 * time, which moment's LLL does not.
 */
const LOCALE = 'nl-NL';
const TIME_ZONE = 'Europe/Amsterdam';

const format = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "D MMMM YYYY HH:mm" in Dutch, Amsterdam time; OpenStad's text for a missing date otherwise. */
export function humanizeDate(iso: unknown): string {
  const date = typeof iso === 'string' ? new Date(iso) : undefined;
  if (!date || Number.isNaN(date.getTime())) return 'Onbekende datum';
  const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part['day']} ${part['month']} ${part['year']} ${part['hour']}:${part['minute']}`;
}
