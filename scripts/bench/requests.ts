/**
 * DynamoDB requests per call, for every endpoint of serverless.yml: each handler invoked in-process
 * against the bench's DynamoDB Local, its requests counted by the recording middleware. Where a call
 * has a size (a list page, a vote round, an idea's arguments) it is measured at two sizes side by
 * side: reads and vote rounds must cost the same at both; deletes that cascade grow by design.
 */
import { putNewSite } from '#lib/store/sites/sites';
import { newIds } from '#lib/store/db/ids';
import { createSite } from '#tests/support/fixtures';
import { startAuthServer, type AuthClient } from '../auth-server/index.ts';
import { handler as notFound } from '../../functions/system/not-found.ts';
import { handler as siteList } from '../../functions/sites/list.ts';
import { handler as siteCreate } from '../../functions/sites/create.ts';
import { handler as siteGet } from '../../functions/sites/get.ts';
import { handler as siteUpdate } from '../../functions/sites/update.ts';
import { handler as siteDelete } from '../../functions/sites/delete.ts';
import { handler as ideaList } from '../../functions/ideas/list.ts';
import { handler as ideaCreate } from '../../functions/ideas/create.ts';
import { handler as ideaGet } from '../../functions/ideas/get.ts';
import { handler as ideaUpdate } from '../../functions/ideas/update.ts';
import { handler as ideaDelete } from '../../functions/ideas/delete.ts';
import { handler as articleList } from '../../functions/articles/list.ts';
import { handler as articleCreate } from '../../functions/articles/create.ts';
import { handler as articleGet } from '../../functions/articles/get.ts';
import { handler as articleUpdate } from '../../functions/articles/update.ts';
import { handler as articleDelete } from '../../functions/articles/delete.ts';
import { handler as argumentListSite } from '../../functions/arguments/list-site.ts';
import { handler as argumentList } from '../../functions/arguments/list.ts';
import { handler as argumentCreate } from '../../functions/arguments/create.ts';
import { handler as argumentGet } from '../../functions/arguments/get.ts';
import { handler as argumentUpdate } from '../../functions/arguments/update.ts';
import { handler as argumentDelete } from '../../functions/arguments/delete.ts';
import { handler as argumentVote } from '../../functions/arguments/vote.ts';
import { handler as voteCast } from '../../functions/votes/cast.ts';
import { handler as voteList } from '../../functions/votes/list.ts';
import { handler as newsletterSignupList } from '../../functions/newsletter/list.ts';
import { handler as newsletterSignupCreate } from '../../functions/newsletter/create.ts';
import { handler as newsletterConfirm } from '../../functions/newsletter/confirm.ts';
import { handler as oauthLogin } from '../../functions/oauth/login.ts';
import { handler as oauthDigestLogin } from '../../functions/oauth/digest-login.ts';
import { handler as oauthMe } from '../../functions/oauth/me.ts';
import { handler as oauthLogout } from '../../functions/oauth/logout.ts';
import { handler as userList } from '../../functions/users/list.ts';
import { handler as userCreate } from '../../functions/users/create.ts';
import { handler as userGet } from '../../functions/users/get.ts';
import { handler as userUpdate } from '../../functions/users/update.ts';
import { handler as userDelete } from '../../functions/users/delete.ts';
import { call, expectStatus, json, type CallOptions, type CallResult, type Handler } from '../lambda-call.ts';
import { countByCommand, readUnits, record, writeUnits } from './recorder.ts';
import { seedArguments, seedArticles, seedIdeas, seedUsers, type SeededUser } from './seed.ts';
import { ALL_IDEA_FLAGS, BENCH_CONFIG, ideaSite, spread } from './world.ts';
import { SERVICE_TOKEN } from './env.ts';

interface CountAtSize {
  /** What varies, e.g. "page of 10 ideas". */
  size: string;
  requests: number;
  commands: Record<string, number>;
  /** Capacity units of the call as DynamoDB reports them (ReturnConsumedCapacity). */
  readUnits?: number;
  writeUnits?: number;
}

export interface CountRow {
  endpoint: string;
  scenario: string;
  /** `constant`: must not change with the size; `grows`: cost follows what is deleted (by design). */
  expect: 'constant' | 'grows';
  measured: CountAtSize[];
  /** For `constant` rows measured at two sizes: whether the counts are equal. */
  constant: boolean | null;
}

export interface RequestResults {
  rows: CountRow[];
  /** Endpoints of serverless.yml with no row (should be none). */
  missing: string[];
  violations: string[];
}

async function measure(what: string, handler: Handler, options: CallOptions, status: number): Promise<CountAtSize & { result: CallResult }> {
  const { result, requests } = await record(() => call(handler, options));
  expectStatus(result, status, what);
  return { size: '', requests: requests.length, commands: countByCommand(requests), readUnits: readUnits(requests), writeUnits: writeUnits(requests), result };
}

const API_HOST = 'api.bench.test';
const FRONTEND = 'https://bench.example.org/after-login';
const CLIENT: AuthClient = { clientId: 'bench-client', clientSecret: 'bench-client-secret-0123456789', allowedHosts: [API_HOST, 'bench.example.org'] };

export async function measureRequests(endpoints: readonly string[], log: (line: string) => void): Promise<RequestResults> {
  const rows: CountRow[] = [];
  const add = (endpoint: string, scenario: string, measured: Array<CountAtSize & { size: string }>, expectation: 'constant' | 'grows' = 'constant') => {
    const clean = measured.map(({ size, requests, commands, readUnits, writeUnits }) => ({ size, requests, commands, readUnits, writeUnits }));
    const constant = expectation === 'constant' && clean.length > 1 ? clean.every((m) => m.requests === clean[0]!.requests) : null;
    rows.push({ endpoint, scenario, expect: expectation, measured: clean, constant });
  };
  const at = async (size: string, what: string, handler: Handler, options: CallOptions, status = 200) => ({
    ...(await measure(`${what} (${size})`, handler, options, status)),
    size,
  });

  log('  seeding: a site of 100 ideas (2 arguments each, 100 authors, 5 voters), 100 articles, 100 sites');
  const world = await ideaSite(100);
  const { siteId, ideaIds, moderator, member } = world;
  const site = { siteId };
  await seedArticles(siteId, 100, world.authors.map((a) => a.id));
  // Enough sites for a site list page of 100.
  const firstSite = newIds(100)[0]!;
  const now = new Date().toISOString();
  for (let i = 0; i < 100; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        putNewSite({ id: firstSite + i + j, name: `bench-${i + j}`, title: null, domain: null, config: {}, createdAt: now, updatedAt: now }),
      ),
    );
  }

  // ---- system and sites
  add('notFound', 'unknown path', [await at('-', 'notFound', notFound, { method: 'GET', path: '/no/such/path' }, 404)]);
  add('notFound', 'CORS preflight on a site path', [
    await at('-', 'preflight', notFound, { method: 'OPTIONS', path: `/api/site/${siteId}/idea`, headers: { origin: 'https://bench.example.org', 'access-control-request-method': 'GET' } }, 204),
  ]);
  add('siteList', 'page, service token', [
    await at('page of 10', 'siteList', siteList, { query: { pageSize: '10' }, token: SERVICE_TOKEN }),
    await at('page of 100', 'siteList', siteList, { query: { pageSize: '100' }, token: SERVICE_TOKEN }),
  ]);
  const created = await at('-', 'siteCreate', siteCreate, { method: 'POST', body: { name: 'bench-created', config: BENCH_CONFIG }, token: SERVICE_TOKEN }, 201);
  add('siteCreate', 'service token', [created]);
  add('siteGet', 'anonymous (redacted config)', [await at('-', 'siteGet', siteGet, { params: site })]);
  add('siteGet', 'service token', [await at('-', 'siteGet', siteGet, { params: site, token: SERVICE_TOKEN })]);
  const newSiteId = json<{ id: number }>(created.result).id;
  add('siteUpdate', 'service token', [
    await at('-', 'siteUpdate', siteUpdate, { method: 'PUT', params: { siteId: newSiteId }, body: { title: 'Renamed' }, token: SERVICE_TOKEN }),
  ]);
  const doomedSmall = await ideaSite(10, 2);
  const doomedLarge = await ideaSite(100, 2);
  add(
    'siteDelete',
    'site with its ideas, arguments, ballots, users',
    [
      await at('site of 10 ideas', 'siteDelete', siteDelete, { method: 'DELETE', params: { siteId: doomedSmall.siteId }, token: SERVICE_TOKEN }),
      await at('site of 100 ideas', 'siteDelete', siteDelete, { method: 'DELETE', params: { siteId: doomedLarge.siteId }, token: SERVICE_TOKEN }),
    ],
    'grows',
  );

  // ---- ideas
  for (const sort of ['createdate_desc', 'votes_desc']) {
    add('ideaList', `every include flag, ${sort}, moderator with a ballot`, [
      await at('page of 10', 'ideaList', ideaList, { params: site, query: { ...ALL_IDEA_FLAGS, sort, pageSize: '10' }, token: moderator.token }),
      await at('page of 100', 'ideaList', ideaList, { params: site, query: { ...ALL_IDEA_FLAGS, sort, pageSize: '100' }, token: moderator.token }),
    ]);
  }
  add('ideaList', 'no flags, anonymous', [
    await at('page of 10', 'ideaList', ideaList, { params: site, query: { pageSize: '10' } }),
    await at('page of 100', 'ideaList', ideaList, { params: site, query: { pageSize: '100' } }),
  ]);
  // One idea with 40 arguments next to one with 2.
  const busyIdea = ideaIds[0]!;
  await seedArguments(siteId, [busyIdea], 38, world.authors.map((a) => a.id));
  const quietIdea = ideaIds[1]!;
  add('ideaGet', 'every include flag, moderator', [
    await at('idea with 2 arguments', 'ideaGet', ideaGet, { params: { ...site, ideaId: quietIdea }, query: ALL_IDEA_FLAGS, token: moderator.token }),
    await at('idea with 40 arguments', 'ideaGet', ideaGet, { params: { ...site, ideaId: busyIdea }, query: ALL_IDEA_FLAGS, token: moderator.token }),
  ]);
  const ideaBody = {
    title: 'A bench idea title',
    summary: 'A summary of the bench idea that is long enough',
    description: 'A description of the bench idea. '.padEnd(200, 'x'),
  };
  const newIdea = await at('-', 'ideaCreate', ideaCreate, { method: 'POST', params: site, body: ideaBody, token: member.token }, 201);
  add('ideaCreate', 'member', [newIdea]);
  const newIdeaId = json<{ id: number }>(newIdea.result).id;
  add('ideaUpdate', 'moderator', [
    await at('-', 'ideaUpdate', ideaUpdate, { method: 'PUT', params: { ...site, ideaId: newIdeaId }, body: { title: 'A renamed bench idea' }, token: moderator.token }),
  ]);
  add('ideaUpdate', 'owner (checks votes and arguments first)', [
    await at('-', 'ideaUpdate', ideaUpdate, { method: 'PUT', params: { ...site, ideaId: newIdeaId }, body: { title: 'Renamed by its owner' }, token: member.token }),
  ]);
  const [plainIdea, arguedIdea] = await seedIdeas(siteId, 2, [member.id]);
  await seedArguments(siteId, [arguedIdea!], 20, [member.id]);
  add(
    'ideaDelete',
    'idea with its arguments and votes (moderator)',
    [
      await at('idea, no arguments', 'ideaDelete', ideaDelete, { method: 'DELETE', params: { ...site, ideaId: plainIdea! }, token: moderator.token }),
      await at('idea with 20 arguments', 'ideaDelete', ideaDelete, { method: 'DELETE', params: { ...site, ideaId: arguedIdea! }, token: moderator.token }),
    ],
    'grows',
  );

  // ---- articles
  const articleFlags = { includeUser: '1', includePosterImage: '1' };
  add('articleList', 'includeUser + includePosterImage, anonymous', [
    await at('page of 10', 'articleList', articleList, { params: site, query: { ...articleFlags, pageSize: '10' } }),
    await at('page of 100', 'articleList', articleList, { params: site, query: { ...articleFlags, pageSize: '100' } }),
  ]);
  const newArticle = await at('-', 'articleCreate', articleCreate, { method: 'POST', params: site, body: ideaBody, token: moderator.token }, 201);
  add('articleCreate', 'moderator', [newArticle]);
  const articleId = json<{ id: number }>(newArticle.result).id;
  add('articleGet', 'includeUser, anonymous', [
    await at('-', 'articleGet', articleGet, { params: { ...site, articleId }, query: articleFlags }),
  ]);
  add('articleUpdate', 'moderator', [
    await at('-', 'articleUpdate', articleUpdate, { method: 'PUT', params: { ...site, articleId }, body: { title: 'A renamed article' }, token: moderator.token }),
  ]);
  add('articleDelete', 'moderator', [
    await at('-', 'articleDelete', articleDelete, { method: 'DELETE', params: { ...site, articleId }, token: moderator.token }),
  ]);

  // ---- arguments
  const argFlags = { withVoteCount: '1', withUserVote: '1' };
  add('argumentList', "an idea's arguments, withVoteCount + withUserVote, member", [
    await at('2 arguments', 'argumentList', argumentList, { params: { ...site, ideaId: quietIdea }, query: argFlags, token: member.token }),
    await at('40 arguments', 'argumentList', argumentList, { params: { ...site, ideaId: busyIdea }, query: argFlags, token: member.token }),
  ]);
  add('argumentListSite', "the site's arguments, anonymous", [
    await at('page of 10', 'argumentListSite', argumentListSite, { params: site, query: { pageSize: '10' } }),
    await at('page of 100', 'argumentListSite', argumentListSite, { params: site, query: { pageSize: '100' } }),
  ]);
  const newArgument = await at(
    '-',
    'argumentCreate',
    argumentCreate,
    { method: 'POST', params: { ...site, ideaId: quietIdea }, body: { description: 'A bench argument, long enough to pass.', sentiment: 'for' }, token: member.token },
    201,
  );
  add('argumentCreate', 'member, top-level', [newArgument]);
  const argumentId = json<{ id: number }>(newArgument.result).id;
  const argParams = { ...site, ideaId: quietIdea, argumentId };
  add('argumentGet', 'anonymous', [await at('-', 'argumentGet', argumentGet, { params: argParams })]);
  add('argumentUpdate', 'owner', [
    await at('-', 'argumentUpdate', argumentUpdate, { method: 'PUT', params: argParams, body: { description: 'A changed bench argument, still long enough.' }, token: member.token }),
  ]);
  add('argumentVote', 'moderator toggles on', [await at('-', 'argumentVote', argumentVote, { method: 'POST', params: argParams, token: moderator.token })]);
  add('argumentDelete', 'owner', [await at('-', 'argumentDelete', argumentDelete, { method: 'DELETE', params: argParams, token: member.token })]);

  // ---- votes
  const [voterA, voterB, voterC] = await seedUsers(siteId, 3, 'member');
  const roundOf = (voter: SeededUser, ids: readonly number[]): CallOptions => ({
    method: 'POST',
    params: site,
    body: ids.map((ideaId) => ({ ideaId })),
    token: voter.token,
  });
  add('voteCast', 'new round (count, replace), new ballot', [
    await at('round of 1 idea', 'voteCast', voteCast, roundOf(voterA!, spread(ideaIds, 1))),
    await at('round of 20 ideas', 'voteCast', voteCast, roundOf(voterB!, spread(ideaIds, 20))),
    await at('round of 100 ideas', 'voteCast', voteCast, roundOf(voterC!, spread(ideaIds, 100))),
  ]);
  add('voteCast', 'replace a held round with another', [
    await at('1 idea for 1', 'voteCast', voteCast, roundOf(voterA!, spread(ideaIds, 1, 50))),
    await at('20 ideas for 20', 'voteCast', voteCast, roundOf(voterB!, spread(ideaIds, 20, 2))),
  ]);
  add('voteList', 'page of votes, moderator', [
    await at('page of 10', 'voteList', voteList, { params: site, query: { pageSize: '10' }, token: moderator.token }),
    await at('page of 100', 'voteList', voteList, { params: site, query: { pageSize: '100' }, token: moderator.token }),
  ]);

  // ---- newsletter
  for (let i = 0; i < 100; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        call(newsletterSignupCreate, { method: 'POST', params: site, body: { email: `reader${i + j}@example.org` } }).then((r) => expectStatus(r, 201, 'seed signup')),
      ),
    );
  }
  const signups = await at('page of 10', 'newsletterSignupList', newsletterSignupList, { params: site, query: { pageSize: '10' }, token: SERVICE_TOKEN });
  add('newsletterSignupList', 'page, service token (sees pending tokens)', [
    signups,
    await at('page of 100', 'newsletterSignupList', newsletterSignupList, { params: site, query: { pageSize: '100' }, token: SERVICE_TOKEN }),
  ]);
  add('newsletterSignupCreate', 'anonymous', [
    // From an address of its own: the 100 seed signups above used up 127.0.0.1's brute-force budget
    // for this minute (100 per address, site and door), and the limiter's own request is part of the cost.
    await at('-', 'newsletterSignupCreate', newsletterSignupCreate, { method: 'POST', params: site, body: { email: 'one.more@example.org', firstName: 'One' }, sourceIp: '203.0.113.10' }, 201),
  ]);
  const confirmToken = json<{ records: Array<{ confirmToken?: string }> }>(signups.result).records.find((r) => r.confirmToken)?.confirmToken;
  if (!confirmToken) throw new Error('newsletter list: no pending token to confirm');
  add('newsletterConfirm', 'pending token', [
    await at('-', 'newsletterConfirm', newsletterConfirm, { method: 'POST', params: site, body: { confirmToken } }),
  ]);

  // ---- users
  add('userList', 'moderator', [
    await at('page of 10', 'userList', userList, { params: site, query: { pageSize: '10' }, token: moderator.token }),
    await at('page of 100', 'userList', userList, { params: site, query: { pageSize: '100' }, token: moderator.token }),
  ]);
  const newUser = await at(
    '-',
    'userCreate',
    userCreate,
    { method: 'POST', params: site, body: { email: 'new.user@example.org', firstName: 'New', lastName: 'User' }, token: moderator.token },
    201,
  );
  add('userCreate', 'moderator, site without auth server', [newUser]);
  const userId = json<{ id: number }>(newUser.result).id;
  add('userGet', 'moderator', [await at('-', 'userGet', userGet, { params: { ...site, userId }, token: moderator.token })]);
  add('userGet', 'own record', [await at('-', 'userGet', userGet, { params: { ...site, userId: member.id }, token: member.token })]);
  add('userUpdate', 'moderator', [
    await at('-', 'userUpdate', userUpdate, { method: 'PUT', params: { ...site, userId }, body: { nickName: 'renamed' }, token: moderator.token }),
  ]);
  add('userDelete', 'moderator, local user', [
    await at('-', 'userDelete', userDelete, { method: 'DELETE', params: { ...site, userId }, token: moderator.token }),
  ]);

  // ---- login, over the local auth server (its HTTP calls are not DynamoDB requests)
  const auth = await startAuthServer({ port: 0, clients: [CLIENT], users: [{ email: 'login@example.org', firstName: 'Log', lastName: 'In' }] });
  try {
    const oauthSite = await createSite({
      allowedDomains: ['bench.example.org'],
      oauth: {
        default: {
          'auth-server-url': auth.url,
          'auth-client-id': CLIENT.clientId,
          'auth-client-secret': CLIENT.clientSecret,
          'auth-server-login-path': '/dialog/authorize',
          'auth-server-exchange-code-path': '/oauth/token',
          'auth-server-get-user-path': '/api/userinfo',
          'auth-server-logout-path': '/logout',
        },
      },
    });
    const params = { siteId: oauthSite.id };
    const loginOnce = async (label: string) => {
      const start = await at('-', 'oauthLogin', oauthLogin, { params, query: { redirectUrl: FRONTEND }, headers: { host: API_HOST } }, 302);
      const authorize = new URL(start.result.headers.location!);
      authorize.searchParams.set('login_hint', 'login@example.org');
      const answer = await fetch(authorize, { redirect: 'manual' });
      if (answer.status !== 302) throw new Error(`auth server authorize: ${answer.status}`);
      const back = new URL(answer.headers.get('location')!);
      // The browser brings back the login cookie the start set (the state is bound to it).
      const cookies = start.result.cookies.map((c) => c.split(';')[0]!);
      const done = await at(label, 'oauthDigestLogin', oauthDigestLogin, { params, query: Object.fromEntries(back.searchParams), cookies }, 302);
      const jwt = new URL(done.result.headers.location!).searchParams.get('jwt');
      if (!jwt) throw new Error('digest-login: no jwt in the redirect');
      return { start, done, jwt };
    };
    const first = await loginOnce('-');
    const again = await loginOnce('-');
    add('oauthLogin', 'redirect to the auth server', [first.start]);
    add('oauthDigestLogin', 'code exchange + userinfo, first login (creates the site user)', [first.done]);
    add('oauthDigestLogin', 'code exchange + userinfo, returning user', [again.done]);
    add('oauthMe', 'logged-in user', [await at('-', 'oauthMe', oauthMe, { params, token: again.jwt })]);
    add('oauthLogout', 'redirect to the auth server', [await at('-', 'oauthLogout', oauthLogout, { params, query: { redirectUrl: FRONTEND } }, 302)]);
  } finally {
    await auth.stop();
  }

  const covered = new Set(rows.map((r) => r.endpoint));
  const missing = endpoints.filter((e) => !covered.has(e));
  const violations = rows
    .filter((r) => r.constant === false)
    .map((r) => `${r.endpoint} (${r.scenario}): ${r.measured.map((m) => `${m.requests} for ${m.size}`).join(' vs ')}`);
  for (const m of missing) violations.push(`${m}: not measured`);
  return { rows, missing, violations };
}
