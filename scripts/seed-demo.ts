/**
 * `npm run seed -- --demo` (or `npm start -- --demo`): realistic demo content on the demo site, written
 * through the domain services as the demo users would through the API: the three demo people log in
 * (lib/users/login.ts, as a login does), then write ideas, arguments (and vote on them), a round of
 * likes each, and articles. Runs once per site: a site that already has ideas is left alone.
 *
 * Standalone (`npm run seed -- --demo [--site N]`, default site 1), it talks to the DynamoDB Local of
 * the running `npm start` (in-memory runs too), or to DYNAMODB_ENDPOINT when set, through the frame of
 * every local script (scripts/local-script.ts): no stack running exits 1, a site that is not there 2.
 */
import { parseArgs } from 'node:util';
import { exitWhenMain, runLocalScript } from './local-script.ts';
import { DEMO_USERS } from './auth-server/demo.ts';
import { isIdText } from '#schemas/common';

const IDEAS = [
  {
    title: 'Shade trees along the river path',
    summary: 'Plant a row of lime trees between the bridge and the lock, so the path is usable on hot days.',
    description:
      'The river path is the busiest walking and cycling route in the district, but between the bridge and the lock there is no shade at all. In July the asphalt is too hot for dogs and small children. A row of lime trees, planted in the grass strip that is already there, would give shade within a few years and keep the view of the water open.',
    theme: 'green',
    by: 'member',
  },
  {
    title: 'A safe crossing at the school on Elm Street',
    summary: 'A zebra crossing with a traffic island in front of the primary school, where children now cross between parked cars.',
    description:
      'Every morning around 8:15 more than a hundred children cross Elm Street to get to school. Cars park on both sides, so drivers see the children late. A zebra crossing with a traffic island and two parking spaces removed on each side would make the crossing visible from both directions, as the parents council has asked for years.',
    theme: 'traffic',
    by: 'member',
  },
  {
    title: 'Open the community garden to the whole street',
    summary: 'Weekend opening hours and a few shared beds, so neighbours without a garden can grow vegetables too.',
    description:
      'The community garden behind the library is locked except for the twelve plot holders. Many neighbours in the flats around it have no garden or balcony. With opening hours on Saturday and Sunday and four shared beds that anyone may use, the garden would become a meeting place for the street instead of a fenced-off green square.',
    theme: 'green',
    by: 'moderator',
  },
  {
    title: 'Covered bicycle parking at the station',
    summary: 'Two hundred covered, well-lit bicycle spaces on the east side of the station, where bikes now block the pavement.',
    description:
      'On weekdays the pavement on the east side of the station is full of bicycles chained to fences and lamp posts, and people with prams or wheelchairs have to walk on the road. A covered bicycle parking with two hundred spaces and good lighting on the empty lot next to the taxi stand would clear the pavement and keep bikes dry.',
    theme: 'traffic',
    by: 'admin',
  },
  {
    title: 'Benches and a water tap on the market square',
    summary: 'A few benches in the shade and a drinking water tap, so older people and families can rest on the square.',
    description:
      'The market square was redesigned three years ago and looks tidy, but there is nowhere to sit except the cafe terraces. Older people doing their shopping and parents with small children would use the square far more with four benches under the plane trees and a drinking water tap next to the playground. Both are cheap and easy to maintain.',
    theme: 'public space',
    by: 'member',
  },
] as const;

const ARGUMENTS: Array<{ idea: number; by: Person; sentiment: 'for' | 'against'; description: string; likedBy: Person[] }> = [
  { idea: 0, by: 'moderator', sentiment: 'for', description: 'I walk there every day: from June on you cannot stay on that path past noon.', likedBy: ['member', 'admin'] },
  { idea: 0, by: 'admin', sentiment: 'against', description: 'Tree roots lift the asphalt: the path needs a new surface in a few years.', likedBy: [] },
  { idea: 1, by: 'moderator', sentiment: 'for', description: 'My daughter crosses there alone next year. Parents have asked for this for ages.', likedBy: ['member'] },
  { idea: 1, by: 'admin', sentiment: 'against', description: 'Removing parking spaces will make shop deliveries even harder on Elm Street.', likedBy: ['moderator'] },
  { idea: 3, by: 'member', sentiment: 'for', description: 'Yes please: twice this winter I could not get past with the pram.', likedBy: ['moderator', 'admin'] },
];

const ARTICLES = [
  {
    title: 'Idea round for the east district is open',
    summary: 'Until the end of next month anyone who lives or works in the east district can submit ideas and vote.',
    description:
      'The city sets aside a budget for the east district this year, and residents decide what it is spent on. Submit your idea for the neighbourhood, read the ideas of others, add arguments for or against, and like the ideas you want to see happen. After the round closes, the ideas with the most likes are worked out with the residents who proposed them.',
  },
  {
    title: 'What happens with your idea after the vote',
    summary: 'How the ideas with the most support are worked out, costed and put to the district council.',
    description:
      'After the voting round, city staff contact the people behind the ten ideas with the most likes. Together they work out what the idea needs, what it costs and who will maintain it. The results are published here, and the district council decides on the final list in its autumn meeting. Ideas that are not chosen stay visible on the site for the next round.',
  },
];

type Person = 'admin' | 'moderator' | 'member';
const PEOPLE: Person[] = ['admin', 'moderator', 'member'];
/** Who likes which idea (indexes into IDEAS) in their one round. */
const LIKES: Record<Person, number[]> = { admin: [1, 3], moderator: [0, 1, 4], member: [0, 1, 2, 3] };

export interface DemoSummary {
  ideas: number;
  arguments: number;
  votes: number;
  articles: number;
}

/** Writes the demo content on `siteId`; undefined when the site already has ideas. */
export async function seedDemoContent(siteId: number): Promise<DemoSummary | undefined> {
  const { loadSite } = await import('#lib/sites/site');
  const { authServerFor } = await import('#lib/auth-server/config');
  const { userForLogin } = await import('#lib/users/login');
  const { createIdea, listIdeas } = await import('#lib/ideas/service');
  const { createArgument, toggleArgumentVote } = await import('#lib/arguments/service');
  const { castVotes } = await import('#lib/votes/cast');
  const { createArticle } = await import('#lib/articles/service');
  const { NOBODY } = await import('#lib/auth/caller');
  type Caller = import('#lib/auth/caller').Caller;

  const site = await loadSite(siteId);
  const existing = await listIdeas(site, NOBODY, { pageSize: 1, sort: 'createdate_desc' } as never);
  if (existing.records.length > 0) return undefined;

  const server = authServerFor(siteId, site.config);
  const callers = {} as Record<Person, Caller>;
  for (const person of PEOPLE) {
    const seed = DEMO_USERS.find((u) => u.role === person)!;
    const user = await userForLogin(site, server, { id: seed.id!, email: seed.email, firstName: seed.firstName, lastName: seed.lastName, role: seed.role });
    callers[person] = { kind: 'user', role: user.role, userId: user.id, siteId, user } as Caller;
  }

  const ideaIds: number[] = [];
  for (const idea of IDEAS) {
    const { by, theme, ...body } = idea;
    const created = await createIdea(site, callers[by], { ...body, extraData: { theme } });
    ideaIds.push(created.id);
  }
  let argumentCount = 0;
  for (const a of ARGUMENTS) {
    const created = await createArgument(site, callers[a.by], ideaIds[a.idea]!, { description: a.description, sentiment: a.sentiment });
    argumentCount++;
    for (const liker of a.likedBy) await toggleArgumentVote(site, callers[liker], ideaIds[a.idea]!, created.id);
  }
  let votes = 0;
  for (const person of PEOPLE) {
    const body = LIKES[person].map((i) => ({ ideaId: ideaIds[i]!, opinion: 'yes' }));
    await castVotes({ site, caller: callers[person], round: body, idempotencyKey: undefined });
    votes += body.length;
  }
  for (const article of ARTICLES) await createArticle(site, callers.admin, article);
  return { ideas: ideaIds.length, arguments: argumentCount, votes, articles: ARTICLES.length };
}

const USAGE = 'usage: npm run seed -- --demo [--site N]   (demo ideas, votes, arguments and articles on a site of the running npm start; default site 1)';

export function parseSeedCommand(argv: string[]): { siteId: number } {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { demo: { type: 'boolean' }, site: { type: 'string' } } });
  if (positionals.length > 0 || values.demo !== true) throw new Error(USAGE);
  if (values.site !== undefined && !isIdText(values.site)) throw new Error(`--site must be a site id (a positive integer)\n${USAGE}`);
  return { siteId: Number(values.site ?? 1) };
}

const main = () =>
  runLocalScript(
    'seed',
    parseSeedCommand,
    async ({ siteId }) => {
      const { devDefaults } = await import('#lib/config/env');
      process.env.JWT_SECRET ??= devDefaults.jwtSecret;
      process.env.API_SERVICE_TOKENS ??= devDefaults.serviceToken;
      const summary = await seedDemoContent(siteId);
      console.log(summary ? `Demo content on site ${siteId}: ${JSON.stringify(summary)}` : `Site ${siteId} already has ideas: nothing written.`);
      return 0;
    },
    { siteOf: (command) => command.siteId },
  );

exitWhenMain(import.meta.url, main);
