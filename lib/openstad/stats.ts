/**
 * OpenStad's statistics answers (openstad-api src/routes/stats), computed from the main API's own
 * lists (lib/openstad/dispatch.ts reads them whole, with the caller's rights), so a figure counts
 * exactly what the caller may read.
 *
 * `/overview` (the CMS's admin dashboard, moderator+): an array of `{key, description, result}`,
 * `result` being what its SQL answered: `[{counted}]` for a total, `[{date, counted}]` per day, every
 * day from the first to the last present (its `addMissingDays`). Two of its figures are mended:
 * `votesPerDay` grouped the votes by their idea's creation day (its SQL joined the wrong date), here
 * by the vote's own day; days are Amsterdam days, as its database's DATE_FORMAT gave them.
 * `choicesguideresultsCountTotal` is 0: there are no choices guides here.
 */
type Rec = Record<string, unknown>;

interface OverviewInput {
  ideas: readonly Rec[];
  /** Votes as a moderator reads them (with `userId`). */
  votes: readonly Rec[];
  arguments: readonly Rec[];
}

interface OverviewEntry {
  key: string;
  description: string;
  result: Array<{ counted: number; date?: string }>;
}

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Amsterdam day of an ISO time, `YYYY-MM-DD`; undefined for a missing or bad time. */
export function amsterdamDay(iso: unknown): string | undefined {
  const time = typeof iso === 'string' ? Date.parse(iso) : NaN;
  return Number.isNaN(time) ? undefined : dayFormat.format(time);
}

/** Counts per day, every day from the first to the last (OpenStad's addMissingDays). */
export function perDay(records: readonly Rec[], distinctBy?: (record: Rec) => unknown): Array<{ date: string; counted: number }> {
  const byDay = new Map<string, Set<unknown> | number>();
  for (const record of records) {
    const day = amsterdamDay(record['createdAt']);
    if (!day) continue;
    if (distinctBy) {
      const seen = (byDay.get(day) as Set<unknown> | undefined) ?? new Set();
      byDay.set(day, seen.add(distinctBy(record)));
    } else byDay.set(day, ((byDay.get(day) as number | undefined) ?? 0) + 1);
  }
  const days = [...byDay.keys()].sort();
  if (days.length === 0) return [];
  const out: Array<{ date: string; counted: number }> = [];
  // Days are stepped at noon UTC, which is the same calendar day in Amsterdam all year.
  for (let at = Date.parse(`${days[0]}T12:00:00Z`), last = Date.parse(`${days[days.length - 1]}T12:00:00Z`); at <= last; at += 86_400_000) {
    const date = new Date(at).toISOString().slice(0, 10);
    const value = byDay.get(date);
    out.push({ date, counted: value === undefined ? 0 : typeof value === 'number' ? value : value.size });
  }
  return out;
}

const total = (counted: number) => [{ counted }];

export function overview({ ideas, votes: listed, arguments: args }: OverviewInput): OverviewEntry[] {
  // As openstad-api's SQL (`checked IS NULL OR checked = 1`): a vote a moderator rejected counts in no figure.
  const votes = listed.filter((vote) => vote['rejected'] !== true);
  const voter = (vote: Rec) => vote['userId'];
  const opinion = (value: string) => votes.filter((vote) => vote['opinion'] === value).length;
  const sentiment = (value: string) => args.filter((argument) => argument['sentiment'] === value).length;
  return [
    { key: 'ideaTotal', description: 'Amount of ideas', result: total(ideas.length) },
    { key: 'ideasSubmittedPerDay', description: 'Ideas submitted per day', result: perDay(ideas) },
    { key: 'userVoteTotal', description: 'Amount of users that voted', result: total(new Set(votes.map(voter)).size) },
    { key: 'ideaVotesCountTotal', description: 'Amount of votes on ideas', result: total(votes.length) },
    { key: 'ideaVotesCountForTotal', description: 'Amount of votes for an idea', result: total(opinion('yes')) },
    { key: 'ideaVotesCountAgainstTotal', description: 'Amount of votes against an idea', result: total(opinion('no')) },
    { key: 'usersVotedPerDay', description: 'Amount of users that voted per day.', result: perDay(votes, voter) },
    { key: 'votesPerDay', description: 'Amount of votes per day', result: perDay(votes) },
    { key: 'argumentCountTotal', description: 'Amount of arguments, total count', result: total(args.length) },
    { key: 'argumentForCountTotal', description: 'Amount of arguments for an idea, total count', result: total(sentiment('for')) },
    { key: 'argumentAgainstCountTotal', description: 'Amount of arguments against an idea, total count', result: total(sentiment('against')) },
    { key: 'choicesguideresultsCountTotal', description: 'Amount of choices guide results', result: total(0) },
  ];
}
