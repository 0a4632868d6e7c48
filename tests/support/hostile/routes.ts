/**
 * The route table of the hostile suite: every endpoint of functions/*\/functions.yml with its handler,
 * method and path, a VALID baseline request against the hostile world (so a mutation of one part is
 * refused for that part, not because the rest was already wrong), what its body and query hold, and
 * which callers it must refuse. tests/integration/hostile/coverage.test.ts checks the table against
 * the functions.yml files, both ways.
 */
import fc from 'fast-check';
import { ROLES } from '#lib/auth/roles';
import { voteLogKeys } from '#lib/store/vote-log/log';
import { sitePk } from '#lib/store/db/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { contentKeys } from '#lib/store/content/keys';
import { signupKeys } from '#lib/store/newsletter/keys';
import { notificationKeys } from '#lib/store/notifications/keys';
import { tagKeys } from '#lib/store/tags/keys';
import { userKeys } from '#lib/store/users/keys';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { forbiddenExtraData, nested, unstorableExtraData, type FieldKind } from '#tests/support/hostile/fields';
import { cursorOf, forgedKeyCursors, forgedVoteCursors } from '#tests/support/hostile/arbitraries';
import type { Handler, HostileRequest } from '#tests/support/hostile/send';
import type { LabelledValue } from '#tests/support/hostile/tokens';
import type { SiteWorld } from '#tests/support/hostile/world';
import { FRONTEND_HOST } from '#tests/support/hostile/world';
import { openstadRoutes } from '#tests/support/hostile/openstad-routes';


/**
 * A handler loaded on its first call, so a test file imports only the handlers it calls (each pulls in
 * its whole domain), not all of them.
 */
function lazy(load: () => Promise<{ handler: unknown }>): Handler {
  let loaded: Promise<Handler> | undefined;
  return async (event, context) => {
    loaded ??= load().then((module) => module.handler as Handler);
    return (await loaded)(event, context);
  };
}

/** What a route's baseline and mutations are built from. */
export interface Ctx {
  /** The site under attack. */
  w: SiteWorld;
  /** A second site: its ids and tokens are "of another site". */
  other: SiteWorld;
  /** Names of sites a request could create start with this (a rejected create must have made none). */
  marker: string;
  /** A site with Basic Auth on (user `hostile`, password `secret`). */
  basicSiteId: number;
  /** Tokens that must never be accepted (tests/support/hostile/tokens.ts). */
  forged: LabelledValue[];
  /** Real cursors of every paged list, of both sites. */
  realCursors: RealCursor[];
  /** Extra per-file values (the oauth file puts its login states here). */
  extra: Record<string, string>;
}

export interface RealCursor {
  family: string;
  siteId: number | undefined;
  cursor: string;
}

export interface DeniedCaller {
  label: string;
  status: 400 | 401 | 403 | 404 | 409 | 415;
  /** Applied over the baseline request (token, body ...). */
  change: (ctx: Ctx, base: HostileRequest) => HostileRequest;
}

export interface ObjectBody {
  shape: 'object';
  fields: (ctx: Ctx) => Record<string, FieldKind>;
  /** Fields a create cannot do without (removing one is a 400). */
  required?: readonly string[];
}

export interface QuerySpec {
  flags?: readonly string[];
  enums?: Record<string, readonly string[]>;
  /** Query values that are ids (`ideaId`, `userId` filters): malformed ones are a 400. */
  ids?: readonly string[];
  /** Other query parameters with their own bad values. */
  more?: (ctx: Ctx) => Record<string, fc.Arbitrary<string>>;
  /** Paged lists: cursors the route must refuse (forged for it, and real ones of other lists/sites). */
  cursors?: (ctx: Ctx) => string[];
  /** The cursor family: real cursors of other families (or other sites) are bad for this route. */
  family?: string;
  /** Whole-query changes that are refused in combination (e.g. a cursor of another sort order). */
  combos?: (ctx: Ctx) => fc.Arbitrary<Record<string, string>>;
  paged?: boolean;
}

/** A path parameter that is a key of its own shape, not a numeric id. */
export interface PathKey {
  /** Values the route refuses as malformed: 400. */
  malformed: fc.Arbitrary<string>;
  /** Well-formed values of no record: 404. */
  unknown: fc.Arbitrary<string>;
  /** The same kind of record on the other site: 404 here. */
  foreign: (ctx: Ctx) => string;
}

export interface Route {
  /** The function name in functions.yml. */
  name: string;
  /** The handler module (functions.yml `handler`, without `.handler`). */
  module: string;
  handler: Handler;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Path parameters other than `siteId`, each with the same kind of record on the other site. */
  ids: Record<string, (ctx: Ctx) => number>;
  /** Path parameters that are not numeric ids (a receipt): what is malformed (400), unknown and foreign (404). */
  keys?: Record<string, PathKey>;
  baseline: (ctx: Ctx) => HostileRequest;
  body?: ObjectBody | { shape: 'votes' };
  query?: QuerySpec;
  denied?: DeniedCaller[];
  /** Sites whose partitions a rejected request must leave as they were (default: w and other). */
  watches?: (ctx: Ctx) => number[];
  /** Where several entries share one function (the OpenStad surface's): the entry's own name. */
  key?: string;
  /** The route declaration (lib/routes) it answers as, where that is not `name`. */
  operationId?: string;
  /** Behind the OpenStad surface (openstad-routes.ts): lenient queries, a refused token on a read is asked again without it. */
  lenient?: boolean;
}

const keyCursors = (prefix: (ctx: Ctx) => string, foreignPrefix: (ctx: Ctx) => string) => (ctx: Ctx) =>
  forgedKeyCursors(sitePk(ctx.w.siteId), sitePk(ctx.other.siteId), prefix(ctx), foreignPrefix(ctx));

const as = (token: string | undefined) => (_ctx: Ctx, base: HostileRequest): HostileRequest => {
  const { token: _drop, ...rest } = base;
  return token === undefined ? rest : { ...rest, token };
};
const asUser = (pick: (ctx: Ctx) => string) => (ctx: Ctx, base: HostileRequest): HostileRequest => ({ ...base, token: pick(ctx) });
const withBody = (pick: (ctx: Ctx) => string, body: (ctx: Ctx, base: Record<string, unknown>) => unknown) =>
  (ctx: Ctx, base: HostileRequest): HostileRequest => ({ ...base, token: pick(ctx), body: body(ctx, base.body as Record<string, unknown>) });

const NOBODY: DeniedCaller = { label: 'no token', status: 401, change: as(undefined) };

// Field sets ---------------------------------------------------------------------------------------

const contentFields = (extraDataInvalid: readonly unknown[]) => (ctx: Ctx): Record<string, FieldKind> => ({
  title: { kind: 'text', min: 10, max: 50 },
  summary: { kind: 'text', min: 20, max: 140 },
  description: { kind: 'text', min: 140, max: 5000 },
  status: { kind: 'enum', values: ['OPEN', 'CLOSED', 'ACCEPTED', 'DENIED', 'BUSY', 'DONE'] },
  budget: { kind: 'int', min: 0, nullable: true },
  userId: { kind: 'id', nullable: true, foreign: [ctx.other.member.id, ctx.other.admin.id] },
  extraData: { kind: 'object', invalid: extraDataInvalid },
});
const ideaExtraDataInvalid = [{ theme: 'purple' }, { theme: 1 }, { theme: ['green'] }, { area: 'x' }, { area: 1.5 }, { area: 1e300 }, ...forbiddenExtraData, ...unstorableExtraData];
// Discovery: idea tags and location, and the list filters.
const discoveryBodyFields = (ctx: Ctx): Record<string, FieldKind> => ({
  tags: { kind: 'custom', invalid: fc.constantFrom('1', 1, {}, [0], [-1], [1.5], ['1'], [null], [999_999_999], [ctx.other.tagId], [ctx.w.tagId, ctx.other.tagId], Array.from({ length: 21 }, () => ctx.w.tagId)) },
  location: {
    kind: 'custom',
    invalid: fc.constantFrom('here', 1, [], [52, 4], { lat: 91, lng: 0 }, { lat: 0, lng: 181 }, { lat: -90.1, lng: 0 }, { lat: '52', lng: 4 }, { lat: 52 }, { lng: 4 }, { lat: 52, lng: 4, x: 1 }, { lat: null, lng: 4 }, { lat: 1e300, lng: 0 }),
  },
});
const ideaFields = (ctx: Ctx): Record<string, FieldKind> => ({ ...contentFields(ideaExtraDataInvalid)(ctx), ...discoveryBodyFields(ctx) });
const discoveryQueryBad = (): Record<string, fc.Arbitrary<string>> => ({
  tags: fc.constantFrom('', 'a', '0', '-1', '1,,2', '01', '1,', ',1', '1.5', '1e3', Array.from({ length: 21 }, (_, i) => i + 1).join(','), '9'.repeat(16)),
  status: fc.constantFrom('', 'open', 'OPEN,', ',OPEN', 'OPEN;DONE', 'NOPE', 'OPEN,nope'),
  search: fc.constantFrom('', '!!!', '   ', '-', 'x'.repeat(201), 'a b c d e f g h i'),
  bbox: fc.constantFrom('', '1,2,3', '1,2,3,4,5', '1,2,3,x', '91,0,92,1', '0,0,1,181', '2,0,1,1', '0,2,1,1', '1e1,2,3,4', 'NaN,0,1,1', 'Infinity,0,1,1'),
  // near without radius and radius without near are refused whatever their value.
  near: fc.constantFrom('52,4', '', '52', '95,4', 'x,y'),
  radius: fc.constantFrom('100', '0', '50001', '1.5', '-1', ''),
});

const articleExtraDataInvalid = [{ theme: 'purple' }, { theme: true }, ...forbiddenExtraData, ...unstorableExtraData];

const validContent = (n: string) => ({
  title: `A hostile idea ${n}`.slice(0, 40),
  summary: 'A summary that is long enough to pass',
  description: 'A description that is long enough to pass the default minimum of one hundred and forty characters, '.repeat(2),
  extraData: { theme: 'blue' },
});

const ARGUMENT_TEXT = 'This argument is long enough to pass the default minimum length.';

const argumentFields = (ctx: Ctx, create: boolean): Record<string, FieldKind> => ({
  description: { kind: 'text', min: 30, max: 500, trims: true },
  sentiment: { kind: 'enum', values: ['for', 'against'] },
  userId: { kind: 'id', foreign: [ctx.other.member.id] },
  ...(create ? { parentId: { kind: 'id', nullable: true, foreign: [ctx.other.argumentId, ctx.w.replyId] } as FieldKind } : {}),
});

const visibility = [...ROLES, 'all'] as const;
const userFields = (_create: boolean): Record<string, FieldKind> => ({
  email: { kind: 'email' },
  firstName: { kind: 'text', min: 0, max: 255, trims: true, nullable: true },
  lastName: { kind: 'text', min: 0, max: 255, trims: true, nullable: true },
  nickName: { kind: 'text', min: 0, max: 64, trims: true, nullable: true },
  role: { kind: 'enum', values: ROLES },
  listableByRole: { kind: 'enum', values: visibility, nullable: true },
  detailsViewableByRole: { kind: 'enum', values: visibility, nullable: true },
  gender: { kind: 'text', min: 0, max: 64, trims: true, nullable: true },
  signedUpForNewsletter: { kind: 'bool', nullable: true },
  extraData: {
    kind: 'object',
    invalid: [{ gender: 'x' }, { nickName: 'x' }, { bio: { value: 'x', siteId: 1 } }, { bio: [{ value: 'x', siteId: 2 }] }, ...unstorableExtraData],
  },
});

/** Site configs the config schema refuses (CONTRACT: wrong type is a 400). */
const badConfig: fc.Arbitrary<unknown> = fc.constantFrom(
  'x', 1, true, [], [{}],
  { allowedDomains: 'example.org' },
  { allowedDomains: [1] },
  { allowedDomains: Array.from({ length: 1001 }, (_, i) => `d${i}.example.org`) },
  { votes: { isActive: 'yes' } },
  { votes: { voteType: 'nope' } },
  { votes: { voteValues: [] } },
  { votes: { voteValues: [{ value: '' }] } },
  { votes: { themes: 'x' } },
  { votes: { maxIdeas: -1 } },
  { votes: { isActiveFrom: 'not a date' } },
  { votes: 'x' },
  { ideas: { titleMinLength: -1 } },
  { ideas: { titleMaxLength: 1.5 } },
  { ideas: { canAddNewIdeas: 'false' } },
  { ideas: { extraData: { x: { type: 'nope' } } } },
  { ideas: { extraData: { x: { type: 'enum' } } } },
  { ideas: { extraData: { x: { type: 'object' } } } },
  { ideas: { extraData: 'x' } },
  { ideas: { extraData: deepDefinitions(30) } },
  { ideas: { extraData: deepDefinitions(500) } },
  { oauth: [] },
  { oauth: { default: 'x' } },
  { oauth: { default: { 'auth-server-url': 1 } } },
  { basicAuth: { active: 'yes' } },
  { users: { extraData: { bio: { sitespecific: 'yes' } } } },
  { arguments: { descriptionMinLength: -5 } },
  { newslettersignup: { isActive: 1 } },
  { ignoreBruteForce: 'x' },
  { project: { endDate: 5 } },
  { cms: { dbName: 'x'.repeat(10_001) } },
  // Unknown keys are kept as sent, but must be storable.
  { custom: 1e200 },
  { votes: { custom: [1e-200] } },
  { custom: { '': 1 } },
  { custom: nested(40) },
  // A secret's mask where no secret is stored: it cannot be kept (CONTRACT "Decided details, security").
  { oauth: { unknown: { 'auth-client-secret': '********' } } },
  { basicAuth: { password: '********' } },
  // Not well-formed UTF-16 anywhere: a 400 naming its path.
  { custom: { deep: ['x', 'a\ud800'] } },
);

function deepDefinitions(depth: number): Record<string, unknown> {
  let def: Record<string, unknown> = { leaf: { type: 'string' } };
  for (let i = 0; i < depth; i++) def = { nested: { type: 'object', subset: def } };
  return def;
}

const siteFields = (): Record<string, FieldKind> => ({
  name: { kind: 'text', min: 1, max: 255, trims: true },
  title: { kind: 'text', min: 0, max: 255, nullable: true },
  domain: { kind: 'hostname', nullable: true },
  config: { kind: 'custom', invalid: badConfig },
});

// Query pieces -------------------------------------------------------------------------------------

const IDEA_FLAGS = ['includeVoteCount', 'includeUserVote', 'includeUser', 'includeArguments', 'includePosterImage'] as const;
const CONTENT_FLAGS = ['includeUser', 'includePosterImage'] as const;
const ARGUMENT_FLAGS = ['withVoteCount', 'withUserVote'] as const;

const badRedirectUrl: fc.Arbitrary<string> = fc.constantFrom(
  '', 'after', '/after', '//evil.example/after', 'https://evil.example/', 'https://evil.example/?x=frontend.example.org',
  `https://${FRONTEND_HOST}.evil.example/`, `https://evil.example/${FRONTEND_HOST}`, `https://${FRONTEND_HOST}@evil.example/`,
  `https://user:pw@${FRONTEND_HOST}/`, `javascript://${FRONTEND_HOST}/%0aalert(1)`, 'javascript:alert(1)',
  `data:text/html,<script>alert(1)</script>`, `ftp://${FRONTEND_HOST}/`, `file:///etc/passwd`, `https://frontеnd.example.org/`,
  `http://[::1]/`, `https://${'a'.repeat(3000)}.org/`, `https://evil.example#${FRONTEND_HOST}`,
  'https:', 'https://', `https://${FRONTEND_HOST}/${'x'.repeat(2100)}`,
);
const badOauthName: fc.Arbitrary<string> = fc.constantFrom(
  '', '../default', 'a b', 'default ', 'x'.repeat(65), '🙂', 'default\u0000',
);
/** Well-formed names of oauth entries the site does not have: 404 naming the key (CONTRACT "Decided details, lifecycle"). */
const missingOauthEntries = (route: string): DeniedCaller[] =>
  ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'DEFAULT'].map((name) => ({
    label: `${route} with useOauth=${name} (no such entry)`,
    status: 404,
    change: (_c: Ctx, b: HostileRequest) => ({ ...b, query: { ...b.query, useOauth: name } }),
  }));

// The table ----------------------------------------------------------------------------------------


export const routes: Route[] = [
  // Sites
  {
    name: 'siteList',
    module: 'functions/sites/list',
    handler: lazy(() => import('../../../functions/sites/list.ts')),
    method: 'GET',
    path: '/api/site',
    ids: {},
    baseline: () => ({ query: { pageSize: '2' } }),
    query: {
      paged: true,
      family: 'site',
      cursors: () => [
        cursorOf({ GSI1PK: 'SITES' }),
        cursorOf({ GSI1PK: 'SITES', GSI1SK: 'SITE#0000000001' }),
        cursorOf({ GSI1PK: 'SITES', GSI1SK: 5, PK: 'SITE#5', SK: 'SITE' }),
        cursorOf({ GSI1PK: 'OTHER', GSI1SK: 'SITE#0000000001', PK: 'SITE#1', SK: 'SITE' }),
        cursorOf({ PK: 'SITE#1', SK: 'SITE' }),
        cursorOf({ GSI1PK: 'SITES', GSI1SK: 'SITE#0000000001', PK: 'SITE#1', SK: 'SITE', extra: 'x' }),
      ],
    },
  },
  {
    name: 'siteCreate',
    module: 'functions/sites/create',
    handler: lazy(() => import('../../../functions/sites/create.ts')),
    method: 'POST',
    path: '/api/site',
    ids: {},
    baseline: (ctx) => ({ token: SERVICE_TOKEN, body: { name: `${ctx.marker} site`, title: 'A hostile site', domain: 'hostile.example.org', config: {} } }),
    body: { shape: 'object', fields: siteFields, required: ['name'] },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: "a site's admin (sites are created with service tokens)", status: 403, change: asUser((c) => c.w.admin.token) },
    ],
  },
  {
    name: 'siteGet',
    module: 'functions/sites/get',
    handler: lazy(() => import('../../../functions/sites/get.ts')),
    method: 'GET',
    path: '/api/site/{siteId}',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) } }),
  },
  {
    name: 'siteUpdate',
    module: 'functions/sites/update',
    handler: lazy(() => import('../../../functions/sites/update.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: SERVICE_TOKEN, body: { title: 'A changed title' } }),
    body: { shape: 'object', fields: siteFields },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
      { label: "another site's admin", status: 401, change: asUser((c) => c.other.admin.token) },
      { label: 'a member sending a whole new config', status: 403, change: withBody((c) => c.w.member.token, () => ({ config: { basicAuth: { active: true, user: 'x', password: 'y' } } })) },
    ],
  },
  {
    name: 'sitePatch',
    module: 'functions/sites/patch',
    handler: lazy(() => import('../../../functions/sites/patch.ts')),
    method: 'PATCH',
    path: '/api/site/{siteId}',
    ids: {},
    baseline: (ctx) => ({
      params: { siteId: String(ctx.w.siteId) },
      token: SERVICE_TOKEN,
      contentType: 'application/merge-patch+json',
      body: { title: 'A patched title', config: { allowedDomains: [FRONTEND_HOST, 'second.example.org'] } },
    }),
    body: { shape: 'object', fields: siteFields },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
      { label: "another site's admin", status: 401, change: asUser((c) => c.other.admin.token) },
      { label: 'a member patching Basic Auth on', status: 403, change: withBody((c) => c.w.member.token, () => ({ config: { basicAuth: { active: true, user: 'x', password: 'y' } } })) },
      // A merge patch in JSON's own media type is a JSON body, not a patch: refused, not guessed.
      { label: 'the same patch as application/json', status: 415, change: (_c, b) => ({ ...b, contentType: 'application/json' }) },
    ],
  },
  {
    name: 'siteDelete',
    module: 'functions/sites/delete',
    handler: lazy(() => import('../../../functions/sites/delete.ts')),
    method: 'DELETE',
    path: '/api/site/{siteId}',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: SERVICE_TOKEN }),
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
      { label: "another site's admin", status: 401, change: asUser((c) => c.other.admin.token) },
    ],
  },

  // Ideas
  {
    name: 'ideaList',
    module: 'functions/ideas/list',
    handler: lazy(() => import('../../../functions/ideas/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/idea',
    ids: {},
    // A moderator: the hidden world's vote counts, and so the order by votes, are theirs to see.
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1', includeVoteCount: '1' }, token: ctx.w.moderator.token }),
    denied: [
      { label: 'an anonymous order by hidden votes', status: 403, change: (_c, b) => ({ ...as(undefined)(_c, b), query: { ...b.query, sort: 'votes_desc' } }) },
      { label: 'a member ordering by hidden votes', status: 403, change: (c, b) => ({ ...b, token: c.w.member.token, query: { ...b.query, sort: 'votes_asc' } }) },
    ],
    query: {
      paged: true,
      family: 'idea',
      flags: [...IDEA_FLAGS, 'selectRunning'],
      enums: { sort: ['createdate_desc', 'createdate_asc', 'votes_desc', 'votes_asc'] },
      more: discoveryQueryBad,
      cursors: keyCursors(() => contentKeys.ideaPrefix, () => contentKeys.articlePrefix),
      combos: (ctx) =>
        fc.constantFrom<Record<string, string>>(
          // Discovery: distance needs near; a filtered list's cursor continues only its own query.
          { sort: 'distance' },
          { sort: 'distance', bbox: '0,0,1,1' },
          { tags: String(ctx.w.tagId), cursor: cursorOf({ PK: sitePk(ctx.w.siteId), list: 'idea.x', id: 1 }) },
          { tags: String(ctx.w.tagId), cursor: cursorOf({ PK: sitePk(ctx.w.siteId), SK: `${contentKeys.ideaPrefix}0000000001` }) },
          { near: '52,4', radius: '10', sort: 'distance', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), list: 'idea.x', id: 1 }) },

          // A cursor of the votes order is not one of the creation order, and the other way round.
          { sort: 'votes_desc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), SK: `${contentKeys.ideaPrefix}0000000001` }) },
          { sort: 'votes_asc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), sort: 'votes_desc', yes: 0, id: 1 }) },
          { sort: 'votes_desc', cursor: cursorOf({ PK: sitePk(ctx.other.siteId), sort: 'votes_desc', yes: 0, id: 1 }) },
          { sort: 'votes_desc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), sort: 'votes_desc', yes: 'x', id: 1 }) },
          { sort: 'votes_desc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), sort: 'votes_desc', yes: 0, id: 1e300 }) },
          { sort: 'votes_desc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), sort: 'votes_desc', yes: 1.5, id: 1 }) },
          { sort: 'votes_desc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), sort: 'votes_desc' }) },
          { sort: 'createdate_asc', cursor: cursorOf({ PK: sitePk(ctx.w.siteId), sort: 'votes_desc', yes: 0, id: 1 }) },
        ),
    },
  },
  {
    name: 'ideaCreate',
    module: 'functions/ideas/create',
    handler: lazy(() => import('../../../functions/ideas/create.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/idea',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.moderator.token, body: { ...validContent('new'), budget: 100, status: 'OPEN' } }),
    body: { shape: 'object', fields: ideaFields, required: ['title', 'summary', 'description'] },
    denied: [
      NOBODY,
      { label: 'a member setting status', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a member setting userId', status: 403, change: withBody((c) => c.w.member.token, (c) => ({ ...validContent('m'), userId: c.w.member.id })) },
      { label: "another site's moderator", status: 401, change: asUser((c) => c.other.moderator.token) },
    ],
  },
  {
    name: 'ideaGet',
    module: 'functions/ideas/get',
    handler: lazy(() => import('../../../functions/ideas/get.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/idea/{ideaId}',
    ids: { ideaId: (ctx) => ctx.other.ideaId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId) }, query: { includeArguments: '1' } }),
    query: { flags: IDEA_FLAGS },
  },
  {
    name: 'ideaUpdate',
    module: 'functions/ideas/update',
    handler: lazy(() => import('../../../functions/ideas/update.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}/idea/{ideaId}',
    ids: { ideaId: (ctx) => ctx.other.idea2Id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.idea2Id) }, token: ctx.w.moderator.token, body: { title: 'A changed title', budget: 5, tags: [ctx.w.tagId], location: { lat: 52.37, lng: 4.89 } } }),
    body: { shape: 'object', fields: ideaFields },
    denied: [
      NOBODY,
      { label: 'a member who is not the owner', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'the owner setting budget', status: 403, change: asUser((c) => c.w.member2.token) },
      { label: 'the owner of an idea with votes', status: 403, change: (c, b) => ({ ...b, params: { ...b.params, ideaId: String(c.w.ideaId) }, token: c.w.member.token, body: { title: 'A changed title' } }) },
    ],
  },
  {
    name: 'ideaDelete',
    module: 'functions/ideas/delete',
    handler: lazy(() => import('../../../functions/ideas/delete.ts')),
    method: 'DELETE',
    path: '/api/site/{siteId}/idea/{ideaId}',
    ids: { ideaId: (ctx) => ctx.other.idea2Id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.idea2Id) }, token: ctx.w.moderator.token }),
    denied: [
      NOBODY,
      { label: 'a member who is not the owner', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'the owner of an idea with votes and arguments', status: 403, change: (c, b) => ({ ...b, params: { ...b.params, ideaId: String(c.w.ideaId) }, token: c.w.member.token }) },
    ],
  },

  // Discovery: markers and tags
  {
    name: 'ideaMarkerList',
    module: 'functions/ideas/markers',
    handler: lazy(() => import('../../../functions/ideas/markers.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/idea-marker',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1', tags: String(ctx.w.tagId) } }),
    denied: [
      { label: 'an anonymous order by hidden votes', status: 403, change: (_c, b) => ({ ...b, query: { ...b.query, sort: 'votes_desc' } }) },
      { label: 'a member ordering by hidden votes', status: 403, change: (c, b) => ({ ...b, token: c.w.member.token, query: { ...b.query, sort: 'votes_asc' } }) },
    ],
    query: {
      paged: true,
      family: 'ideaMarker',
      flags: ['selectRunning'],
      enums: { sort: ['createdate_desc', 'createdate_asc', 'votes_desc', 'votes_asc'] },
      more: discoveryQueryBad,
      cursors: keyCursors(() => contentKeys.ideaPrefix, () => contentKeys.articlePrefix),
      combos: (ctx) =>
        fc.constantFrom<Record<string, string>>(
          { sort: 'distance' },
          { cursor: cursorOf({ PK: sitePk(ctx.w.siteId), list: 'idea.x', id: 1 }) },
          { cursor: cursorOf({ PK: sitePk(ctx.other.siteId), list: 'idea-marker.x', id: 1 }) },
        ),
    },
  },
  {
    name: 'tagList',
    module: 'functions/tags/list',
    handler: lazy(() => import('../../../functions/tags/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/tag',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1' } }),
    query: { paged: true, family: 'tag', cursors: keyCursors(() => tagKeys.tagPrefix, () => contentKeys.ideaPrefix) },
  },
  {
    name: 'tagCreate',
    module: 'functions/tags/create',
    handler: lazy(() => import('../../../functions/tags/create.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/tag',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.moderator.token, body: { name: 'A new tag', group: 'theme' } }),
    body: { shape: 'object', fields: () => ({ name: { kind: 'text', min: 1, max: 64, trims: true }, group: { kind: 'text', min: 0, max: 64, trims: true, nullable: true } }), required: ['name'] },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a duplicate name', status: 409, change: withBody((c) => c.w.moderator.token, () => ({ name: 'GREEN' })) },
      { label: "another site's moderator", status: 401, change: asUser((c) => c.other.moderator.token) },
    ],
  },
  {
    name: 'tagUpdate',
    module: 'functions/tags/update',
    handler: lazy(() => import('../../../functions/tags/update.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}/tag/{tagId}',
    ids: { tagId: (ctx) => ctx.other.tagId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), tagId: String(ctx.w.tagId) }, token: ctx.w.moderator.token, body: { name: 'Renamed tag' } }),
    body: { shape: 'object', fields: () => ({ name: { kind: 'text', min: 1, max: 64, trims: true }, group: { kind: 'text', min: 0, max: 64, trims: true, nullable: true } }) },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a name another tag has', status: 409, change: withBody((c) => c.w.moderator.token, () => ({ name: 'Blue' })) },
    ],
  },
  {
    name: 'tagDelete',
    module: 'functions/tags/delete',
    handler: lazy(() => import('../../../functions/tags/delete.ts')),
    method: 'DELETE',
    path: '/api/site/{siteId}/tag/{tagId}',
    ids: { tagId: (ctx) => ctx.other.tag2Id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), tagId: String(ctx.w.tag2Id) }, token: ctx.w.moderator.token }),
    denied: [NOBODY, { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) }],
  },

  // Articles
  {
    name: 'articleList',
    module: 'functions/articles/list',
    handler: lazy(() => import('../../../functions/articles/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/article',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1' } }),
    query: {
      paged: true,
      family: 'article',
      flags: CONTENT_FLAGS,
      enums: { sort: ['createdate_desc', 'createdate_asc'] },
      cursors: keyCursors(() => contentKeys.articlePrefix, () => contentKeys.ideaPrefix),
    },
  },
  {
    name: 'articleCreate',
    module: 'functions/articles/create',
    handler: lazy(() => import('../../../functions/articles/create.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/article',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.moderator.token, body: { ...validContent('article'), status: 'OPEN' } }),
    body: { shape: 'object', fields: contentFields(articleExtraDataInvalid), required: ['title', 'summary', 'description'] },
    denied: [NOBODY, { label: 'a member', status: 403, change: withBody((c) => c.w.member.token, () => validContent('m')) }],
  },
  {
    name: 'articleGet',
    module: 'functions/articles/get',
    handler: lazy(() => import('../../../functions/articles/get.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/article/{articleId}',
    ids: { articleId: (ctx) => ctx.other.articleId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), articleId: String(ctx.w.articleId) }, query: { includeUser: '1' } }),
    query: { flags: CONTENT_FLAGS },
  },
  {
    name: 'articleUpdate',
    module: 'functions/articles/update',
    handler: lazy(() => import('../../../functions/articles/update.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}/article/{articleId}',
    ids: { articleId: (ctx) => ctx.other.articleId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), articleId: String(ctx.w.articleId) }, token: ctx.w.moderator.token, body: { summary: 'A changed summary that is long enough' } }),
    body: { shape: 'object', fields: contentFields(articleExtraDataInvalid) },
    denied: [NOBODY, { label: 'a member who is not the owner', status: 403, change: asUser((c) => c.w.member.token) }],
  },
  {
    name: 'articleDelete',
    module: 'functions/articles/delete',
    handler: lazy(() => import('../../../functions/articles/delete.ts')),
    method: 'DELETE',
    path: '/api/site/{siteId}/article/{articleId}',
    ids: { articleId: (ctx) => ctx.other.articleId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), articleId: String(ctx.w.articleId) }, token: ctx.w.moderator.token }),
    denied: [NOBODY, { label: 'a member who is not the owner', status: 403, change: asUser((c) => c.w.member.token) }],
  },

  // Arguments
  {
    name: 'argumentListSite',
    module: 'functions/arguments/list-site',
    handler: lazy(() => import('../../../functions/arguments/list-site.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/argument',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1', withVoteCount: '1' } }),
    query: {
      paged: true,
      family: 'argument',
      flags: ARGUMENT_FLAGS,
      enums: { sentiment: ['for', 'against'] },
      cursors: keyCursors(() => argumentKeys.argumentPrefix, () => userKeys.userPrefix),
    },
  },
  {
    name: 'argumentList',
    module: 'functions/arguments/list',
    handler: lazy(() => import('../../../functions/arguments/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/idea/{ideaId}/argument',
    ids: { ideaId: (ctx) => ctx.other.ideaId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId) }, query: { pageSize: '1', withUserVote: '1' }, token: ctx.w.member2.token }),
    query: {
      paged: true,
      family: 'argument',
      flags: ARGUMENT_FLAGS,
      enums: { sentiment: ['for', 'against'] },
      cursors: keyCursors((c) => argumentKeys.argumentsOfIdeaPrefix(c.w.ideaId), (c) => argumentKeys.argumentsOfIdeaPrefix(c.w.idea2Id)),
    },
  },
  {
    name: 'argumentCreate',
    module: 'functions/arguments/create',
    handler: lazy(() => import('../../../functions/arguments/create.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/idea/{ideaId}/argument',
    ids: { ideaId: (ctx) => ctx.other.ideaId },
    baseline: (ctx) => ({
      params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId) },
      token: ctx.w.moderator.token,
      body: { description: ARGUMENT_TEXT, sentiment: 'against', parentId: ctx.w.argumentId, userId: ctx.w.member2.id },
    }),
    body: { shape: 'object', fields: (ctx) => argumentFields(ctx, true), required: ['description'] },
    denied: [
      NOBODY,
      { label: 'a member writing as another user', status: 403, change: asUser((c) => c.w.member.token) },
      { label: "another site's member", status: 401, change: withBody((c) => c.other.member.token, () => ({ description: ARGUMENT_TEXT })) },
      { label: 'an idea of another site', status: 404, change: (c, b) => ({ ...b, params: { ...b.params, ideaId: String(c.other.ideaId) } }) },
    ],
  },
  {
    name: 'argumentGet',
    module: 'functions/arguments/get',
    handler: lazy(() => import('../../../functions/arguments/get.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}',
    ids: { ideaId: (ctx) => ctx.other.ideaId, argumentId: (ctx) => ctx.other.argumentId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId), argumentId: String(ctx.w.argumentId) }, query: { withVoteCount: '1' } }),
    query: { flags: ARGUMENT_FLAGS },
  },
  {
    name: 'argumentUpdate',
    module: 'functions/arguments/update',
    handler: lazy(() => import('../../../functions/arguments/update.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}',
    ids: { ideaId: (ctx) => ctx.other.ideaId, argumentId: (ctx) => ctx.other.argumentId },
    baseline: (ctx) => ({
      params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId), argumentId: String(ctx.w.argumentId) },
      token: ctx.w.moderator.token,
      body: { description: `${ARGUMENT_TEXT} Changed.`, sentiment: 'for' },
    }),
    body: { shape: 'object', fields: (ctx) => argumentFields(ctx, false) },
    denied: [
      NOBODY,
      { label: 'a member who is not the owner', status: 403, change: asUser((c) => c.w.member2.token) },
      { label: 'the owner handing it to another user', status: 403, change: withBody((c) => c.w.member.token, (c) => ({ userId: c.w.member2.id })) },
    ],
  },
  {
    name: 'argumentDelete',
    module: 'functions/arguments/delete',
    handler: lazy(() => import('../../../functions/arguments/delete.ts')),
    method: 'DELETE',
    path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}',
    ids: { ideaId: (ctx) => ctx.other.ideaId, argumentId: (ctx) => ctx.other.argumentId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId), argumentId: String(ctx.w.argumentId) }, token: ctx.w.moderator.token }),
    denied: [NOBODY, { label: 'a member who is not the owner', status: 403, change: asUser((c) => c.w.member2.token) }],
  },
  {
    name: 'argumentVote',
    module: 'functions/arguments/vote',
    handler: lazy(() => import('../../../functions/arguments/vote.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}/vote',
    ids: { ideaId: (ctx) => ctx.other.ideaId, argumentId: (ctx) => ctx.other.argumentId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), ideaId: String(ctx.w.ideaId), argumentId: String(ctx.w.argumentId) }, token: ctx.w.member.token }),
    denied: [NOBODY, { label: 'a service token (no user to count)', status: 403, change: as(SERVICE_TOKEN) }],
  },

  // Votes
  {
    name: 'voteList',
    module: 'functions/votes/list',
    handler: lazy(() => import('../../../functions/votes/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/vote',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1', opinion: 'yes' }, token: ctx.w.moderator.token }),
    query: {
      paged: true,
      family: 'votes',
      ids: ['ideaId', 'userId'],
      more: () => ({ opinion: fc.constantFrom('', 'x'.repeat(65), '🙂'.repeat(65)) }),
      cursors: (ctx) => forgedVoteCursors(ctx.w.siteId, ctx.other.siteId),
      combos: (ctx) =>
        fc.constantFrom(
          // A cursor inside one user's ballot does not continue a list of another user's votes.
          { userId: String(ctx.w.member.id), cursor: cursorOf({ s: ctx.w.siteId, u: ctx.w.member2.id, i: 0 }) },
        ),
    },
    denied: [
      NOBODY,
      { label: 'a member (votes are not public)', status: 403, change: asUser((c) => c.w.member.token) },
    ],
  },
  {
    name: 'voteCast',
    module: 'functions/votes/cast',
    handler: lazy(() => import('../../../functions/votes/cast.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/vote',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.member2.token, body: [{ ideaId: ctx.w.idea2Id, opinion: 'yes' }, { ideaId: ctx.w.ideaId, opinion: 'no' }] }),
    body: { shape: 'votes' },
    denied: [
      NOBODY,
      { label: 'a service token (no user to vote as)', status: 403, change: as(SERVICE_TOKEN) },
      { label: "another site's member", status: 401, change: asUser((c) => c.other.member2.token) },
      ...['', 'has space', 'x'.repeat(129), 'ключ', 'a/b', 'a\u0000b'].map(
        (key): DeniedCaller => ({ label: `Idempotency-Key ${JSON.stringify(key)}`, status: 400, change: (_c, b) => ({ ...b, headers: { 'idempotency-key': key } }) }),
      ),
    ],
  },
  {
    name: 'voteReview',
    module: 'functions/votes/review',
    handler: lazy(() => import('../../../functions/votes/review.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}/vote/{voteId}',
    ids: { voteId: (ctx) => ctx.other.voteId },
    // Reinstating a vote that counts: the answer, nothing written (the world's tallies stay).
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), voteId: String(ctx.w.voteId) }, token: ctx.w.moderator.token, body: { rejected: false } }),
    body: { shape: 'object', fields: () => ({ rejected: { kind: 'bool' } }) },
    denied: [
      NOBODY,
      { label: 'the voter', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'another member', status: 403, change: asUser((c) => c.w.member2.token) },
      { label: "another site's moderator", status: 401, change: asUser((c) => c.other.moderator.token) },
    ],
  },

  // Users
  {
    name: 'userList',
    module: 'functions/users/list',
    handler: lazy(() => import('../../../functions/users/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/user',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1' }, token: ctx.w.moderator.token }),
    query: { paged: true, family: 'user', cursors: keyCursors(() => userKeys.userPrefix, () => contentKeys.ideaPrefix) },
    denied: [NOBODY, { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) }],
  },
  {
    name: 'userCreate',
    module: 'functions/users/create',
    handler: lazy(() => import('../../../functions/users/create.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/user',
    ids: {},
    baseline: (ctx) => ({
      params: { siteId: String(ctx.w.siteId) },
      token: ctx.w.moderator.token,
      body: { email: `new-${ctx.w.siteId}@example.org`, firstName: 'Nora', lastName: 'New', role: 'member', extraData: { bio: 'Hello' } },
    }),
    body: { shape: 'object', fields: () => userFields(true), required: ['email'] },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator creating an admin', status: 403, change: withBody((c) => c.w.moderator.token, (_c, b) => ({ ...b, role: 'admin' })) },
    ],
  },
  {
    name: 'userGet',
    module: 'functions/users/get',
    handler: lazy(() => import('../../../functions/users/get.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/user/{userId}',
    ids: { userId: (ctx) => ctx.other.member.id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), userId: String(ctx.w.member.id) } }),
  },
  {
    name: 'userUpdate',
    module: 'functions/users/update',
    handler: lazy(() => import('../../../functions/users/update.ts')),
    method: 'PUT',
    path: '/api/site/{siteId}/user/{userId}',
    ids: { userId: (ctx) => ctx.other.member.id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), userId: String(ctx.w.member.id) }, token: ctx.w.moderator.token, body: { firstName: 'Renamed', extraData: { bio: 'Changed' } } }),
    body: { shape: 'object', fields: () => userFields(false) },
    denied: [
      NOBODY,
      { label: 'another member', status: 403, change: asUser((c) => c.w.member2.token) },
      { label: 'a member making themself admin', status: 403, change: withBody((c) => c.w.member.token, () => ({ role: 'admin' })) },
      { label: 'a moderator demoting an admin', status: 403, change: (c, b) => ({ ...b, params: { ...b.params, userId: String(c.w.admin.id) }, body: { role: 'member' } }) },
      { label: "a moderator renaming an admin", status: 403, change: (c, b) => ({ ...b, params: { ...b.params, userId: String(c.w.admin.id) } }) },
      { label: "a moderator changing a member's e-mail (admin only)", status: 403, change: (_c, b) => ({ ...b, body: { email: 'taken-over@example.org' } }) },
    ],
  },
  {
    name: 'userDelete',
    module: 'functions/users/delete',
    handler: lazy(() => import('../../../functions/users/delete.ts')),
    method: 'DELETE',
    path: '/api/site/{siteId}/user/{userId}',
    ids: { userId: (ctx) => ctx.other.member2.id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), userId: String(ctx.w.member2.id) }, token: ctx.w.moderator.token }),
    denied: [
      NOBODY,
      { label: 'another member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator deleting an admin', status: 403, change: (c, b) => ({ ...b, params: { ...b.params, userId: String(c.w.admin.id) } }) },
    ],
  },

  // Activity and anonymization: the user themself or a moderator; the anonymizations (PUT, no body)
  // must leave every site as it was when refused.
  {
    name: 'userActivity',
    module: 'functions/users/activity',
    handler: lazy(() => import('../../../functions/users/activity.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/user/{userId}/activity',
    ids: { userId: (ctx) => ctx.other.member.id },
    // A moderator: a member asking for an id that is not theirs learns nothing (403, not 404).
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), userId: String(ctx.w.member.id) }, token: ctx.w.moderator.token }),
    query: { flags: ['includeOtherSites', 'includeIdeas', 'includeArticles', 'includeArguments', 'includeVotes'] },
    denied: [NOBODY, { label: 'another member', status: 403, change: asUser((c) => c.w.member2.token) }],
  },
  ...(
    [
      ['userWillAnonymize', 'will-anonymize', 'will-anonymize'],
      ['userWillAnonymizeAll', 'will-anonymize-all', 'will-anonymizeall'],
      ['userDoAnonymize', 'do-anonymize', 'do-anonymize'],
      ['userDoAnonymizeAll', 'do-anonymize-all', 'do-anonymizeall'],
    ] as const
  ).map(
    ([name, file, segment]): Route => ({
      name,
      module: `functions/users/${file}`,
      handler: lazy(() => import(`../../../functions/users/${file}.ts`)),
      method: 'PUT',
      path: `/api/site/{siteId}/user/{userId}/${segment}`,
      ids: { userId: (ctx) => ctx.other.member2.id },
      // Every site of a person: the person themself or a service token only.
      baseline: (ctx) => ({
        params: { siteId: String(ctx.w.siteId), userId: String(ctx.w.member2.id) },
        token: segment.endsWith('all') ? SERVICE_TOKEN : ctx.w.moderator.token,
      }),
      denied: [
        NOBODY,
        { label: 'another member', status: 403, change: asUser((c) => c.w.member.token) },
        // Previews are acting on the user too: nobody acts on a user above their own role.
        { label: 'a moderator anonymizing an admin', status: 403 as const, change: (c: Ctx, b: HostileRequest) => ({ ...b, token: c.w.moderator.token, params: { ...b.params, userId: String(c.w.admin.id) } }) },
        ...(segment.endsWith('all') ? [{ label: "the site's admin (site staff use the per-site paths)", status: 403 as const, change: asUser((c) => c.w.admin.token) }] : []),
      ],
    }),
  ),

  // Lifecycle: the outbox
  {
    name: 'notificationList',
    module: 'functions/notifications/list',
    handler: lazy(() => import('../../../functions/notifications/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/notification',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1' }, token: ctx.w.admin.token }),
    query: { paged: true, family: 'notification', enums: { status: ['pending', 'sent'] }, cursors: keyCursors(() => notificationKeys.notificationPrefix, () => userKeys.userPrefix) },
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
      { label: "the other site's admin", status: 401, change: asUser((c) => c.other.admin.token) },
    ],
  },
  {
    name: 'notificationSent',
    module: 'functions/notifications/sent',
    handler: lazy(() => import('../../../functions/notifications/sent.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/notification/{notificationId}/sent',
    ids: { notificationId: (ctx) => ctx.other.notificationId },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), notificationId: String(ctx.w.notificationId) }, token: ctx.w.admin.token }),
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
    ],
  },

  // Results, exports and the vote record
  {
    name: 'resultsGet',
    module: 'functions/results/get',
    handler: lazy(() => import('../../../functions/results/get.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/results',
    ids: {},
    // The hostile site's votes are not viewable and its project runs: moderators only.
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.moderator.token }),
    denied: [NOBODY, { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) }],
  },
  ...(
    [
      // The hostile site counts likes: its votes export as CSV (Pabulib is for ballot types).
      ['exportVotes', 'export-votes', 'votes', ['csv', 'pabulib']],
      ['exportIdeas', 'export-ideas', 'ideas', ['csv']],
    ] as const
  ).map(
    ([name, file, what, formats]): Route => ({
      name,
      module: `functions/results/${file}`,
      handler: lazy(() => (file === 'export-votes' ? import('../../../functions/results/export-votes.ts') : import('../../../functions/results/export-ideas.ts'))),
      method: 'GET',
      path: `/api/site/{siteId}/export/${what}`,
      ids: {},
      baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { format: formats[0] }, token: ctx.w.admin.token }),
      query: {
        enums: { format: formats },
        // Cursors are sealed and bound to site, list and format: anything forged or foreign is a 400.
        more: (ctx) => ({
          cursor: fc.constantFrom(
            'x',
            'x'.repeat(3000),
            ...forgedKeyCursors(sitePk(ctx.w.siteId), sitePk(ctx.other.siteId), ballotKeys.ballotPrefix, userKeys.userPrefix),
            ...ctx.realCursors.map((c) => c.cursor),
          ),
        }),
      },
      denied: [
        NOBODY,
        { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
        { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
        { label: "the other site's admin", status: 401, change: asUser((c) => c.other.admin.token) },
      ],
    }),
  ),
  {
    name: 'voteCheckpointList',
    module: 'functions/results/checkpoints',
    handler: lazy(() => import('../../../functions/results/checkpoints.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/vote-checkpoint',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1' }, token: ctx.w.moderator.token }),
    query: { paged: true, family: 'vote-checkpoints', cursors: keyCursors(() => voteLogKeys.checkpointPrefix, () => userKeys.userPrefix) },
    denied: [NOBODY, { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) }],
  },
  {
    name: 'resultsCompute',
    module: 'functions/results/compute',
    handler: lazy(() => import('../../../functions/results/compute.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/results/compute',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.moderator.token }),
    denied: [
      NOBODY,
      { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) },
      { label: "the other site's moderator", status: 401, change: asUser((c) => c.other.moderator.token) },
    ],
  },
  {
    name: 'voteReceiptGet',
    module: 'functions/results/vote-receipt',
    handler: lazy(() => import('../../../functions/results/vote-receipt.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/vote-receipt/{receipt}',
    ids: {},
    keys: {
      receipt: {
        malformed: fc.oneof(
          fc.constantFrom('', 'abc', '0', '1', 'g'.repeat(64), '0'.repeat(63), '0'.repeat(65), `${'0'.repeat(63)} `, `${'0'.repeat(62)}%00`, '../'.repeat(21), '0x' + '0'.repeat(62), 'ａ'.repeat(64)),
          fc.string({ maxLength: 80 }).filter((s) => !/^[0-9a-fA-F]{64}$/.test(s)),
        ),
        unknown: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('hex')),
        foreign: (ctx) => ctx.other.receipt,
      },
    },
    // Anyone may check a receipt: it is the voter's own proof, and it tells nobody else anything.
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), receipt: ctx.w.receipt } }),
  },
  {
    name: 'voteRecordKey',
    module: 'functions/results/vote-record-key',
    handler: lazy(() => import('../../../functions/results/vote-record-key.ts')),
    method: 'GET',
    path: '/api/vote-record/key',
    ids: {},
    baseline: () => ({}),
  },
  {
    name: 'voteRecordCheckpoint',
    module: 'functions/results/vote-record-checkpoint',
    handler: lazy(() => import('../../../functions/results/vote-record-checkpoint.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/vote-record/checkpoint',
    ids: {},
    // The hostile site's counts are hidden and its project runs: the record's size is the moderators'.
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.moderator.token }),
    denied: [NOBODY, { label: 'a member (the counts are hidden)', status: 403, change: asUser((c) => c.w.member.token) }],
  },
  {
    name: 'voteRecordConsistency',
    module: 'functions/results/vote-record-consistency',
    handler: lazy(() => import('../../../functions/results/vote-record-consistency.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/vote-record/consistency',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { from: '1', to: '1' }, token: ctx.w.moderator.token }),
    denied: [NOBODY, { label: 'a member (the counts are hidden)', status: 403, change: asUser((c) => c.w.member.token) }],
    // Sizes are whole numbers from 1; `from` past `to` is no proof.
    query: { ids: ['from', 'to'], more: () => ({ from: fc.constantFrom('2', '3', '999999999') }) },
  },
  {
    name: 'userExport',
    module: 'functions/users/export',
    handler: lazy(() => import('../../../functions/users/export.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/user/{userId}/export',
    ids: { userId: (ctx) => ctx.other.member.id },
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), userId: String(ctx.w.member.id) }, token: ctx.w.admin.token }),
    denied: [
      NOBODY,
      { label: 'another member', status: 403, change: asUser((c) => c.w.member2.token) },
      { label: 'a moderator', status: 403, change: asUser((c) => c.w.moderator.token) },
    ],
  },

  // Login
  {
    name: 'oauthLogin',
    module: 'functions/oauth/login',
    handler: lazy(() => import('../../../functions/oauth/login.ts')),
    method: 'GET',
    path: '/oauth/site/{siteId}/login',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { redirectUrl: `https://${FRONTEND_HOST}/after?x=1` }, headers: { host: 'api.example.test' } }),
    query: { more: () => ({ redirectUrl: badRedirectUrl, useOauth: badOauthName }) },
    // The redirect_uri sent to the auth server is built from Host: a bad one is refused, not echoed.
    denied: [
      { label: 'no Host header', status: 400, change: (_c, b) => ({ ...b, headers: {} }) },
      { label: 'a Host with a path', status: 400, change: (_c, b) => ({ ...b, headers: { host: 'evil.example/steal?x=' } }) },
      { label: 'a Host with a space', status: 400, change: (_c, b) => ({ ...b, headers: { host: 'api.example.test evil.example' } }) },
      { label: 'a Host with credentials', status: 400, change: (_c, b) => ({ ...b, headers: { host: 'user@evil.example' } }) },
      { label: 'a Host that is empty', status: 400, change: (_c, b) => ({ ...b, headers: { host: '' } }) },
      ...missingOauthEntries('login'),
    ],
  },
  {
    name: 'oauthDigestLogin',
    module: 'functions/oauth/digest-login',
    handler: lazy(() => import('../../../functions/oauth/digest-login.ts')),
    method: 'GET',
    path: '/oauth/site/{siteId}/digest-login',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { state: ctx.extra.state ?? 'missing-state', code: 'a-code-the-auth-server-never-issued' } }),
    query: {
      more: (ctx) => ({
        state: fc.constantFrom(...(ctx.extra.badStates ?? 'x').split(' ')),
        code: fc.constantFrom('', 'x'.repeat(2049), 'unknown-code', '🙂', 'code\u0000'),
        error: fc.constantFrom('x'.repeat(257)),
      }),
    },
  },
  {
    name: 'oauthMe',
    module: 'functions/oauth/me',
    handler: lazy(() => import('../../../functions/oauth/me.ts')),
    method: 'GET',
    path: '/oauth/site/{siteId}/me',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, token: ctx.w.member.token }),
    denied: [NOBODY, { label: 'a service token (nobody)', status: 401, change: as(SERVICE_TOKEN) }],
  },
  {
    name: 'oauthLogout',
    module: 'functions/oauth/logout',
    handler: lazy(() => import('../../../functions/oauth/logout.ts')),
    method: 'GET',
    path: '/oauth/site/{siteId}/logout',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { redirectUrl: `https://${FRONTEND_HOST}/bye` } }),
    query: { more: () => ({ redirectUrl: badRedirectUrl, useOauth: badOauthName }) },
    denied: missingOauthEntries('logout'),
  },

  // Newsletter
  {
    name: 'newsletterSignupList',
    module: 'functions/newsletter/list',
    handler: lazy(() => import('../../../functions/newsletter/list.ts')),
    method: 'GET',
    path: '/api/site/{siteId}/newslettersignup',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, query: { pageSize: '1' }, token: ctx.w.moderator.token }),
    query: { paged: true, family: 'signup', flags: ['confirmed'], cursors: keyCursors(() => signupKeys.newsletterSignupPrefix, () => userKeys.userPrefix) },
    denied: [NOBODY, { label: 'a member', status: 403, change: asUser((c) => c.w.member.token) }],
  },
  {
    name: 'newsletterSignupCreate',
    module: 'functions/newsletter/create',
    handler: lazy(() => import('../../../functions/newsletter/create.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/newslettersignup',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, body: { email: `reader-${ctx.w.siteId}@example.org`, firstName: 'Rea', lastName: 'Der' } }),
    body: {
      shape: 'object',
      fields: () => ({
        email: { kind: 'email' },
        firstName: { kind: 'text', min: 0, max: 255, trims: true, nullable: true },
        lastName: { kind: 'text', min: 0, max: 255, trims: true, nullable: true },
      }),
      required: ['email'],
    },
    denied: [
      { label: 'an e-mail already signed up', status: 409, change: (c, b) => ({ ...b, body: { email: c.w.signupEmail } }) },
      { label: 'an e-mail already signed up, in capitals and padded', status: 409, change: (c, b) => ({ ...b, body: { email: `  ${c.w.signupEmail.toUpperCase()} ` } }) },
    ],
  },
  {
    name: 'newsletterConfirm',
    module: 'functions/newsletter/confirm',
    handler: lazy(() => import('../../../functions/newsletter/confirm.ts')),
    method: 'POST',
    path: '/api/site/{siteId}/confirm',
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, body: { confirmToken: ctx.w.confirmToken } }),
    body: { shape: 'object', fields: () => ({ confirmToken: { kind: 'secret', max: 512 } }), required: ['confirmToken'] },
    denied: [
      { label: "another site's token", status: 404, change: (c, b) => ({ ...b, body: { confirmToken: c.other.confirmToken } }) },
      { label: 'the token with a character changed', status: 404, change: (c, b) => ({ ...b, body: { confirmToken: `${c.w.confirmToken.slice(0, -1)}${c.w.confirmToken.endsWith('A') ? 'B' : 'A'}` } }) },
    ],
  },

  // The API's own description: public, static and on the shared stack without site or caller (lib/http/stack.ts); it
  // reads no body, query or token, so only coverage checks these two (unit and e2e tests do the rest).
  {
    name: 'openapi',
    module: 'functions/system/openapi',
    handler: lazy(() => import('../../../functions/system/openapi.ts')),
    method: 'GET',
    path: '/api/openapi.json',
    ids: {},
    baseline: () => ({}),
  },
  {
    name: 'docs',
    module: 'functions/system/docs',
    handler: lazy(() => import('../../../functions/system/docs.ts')),
    method: 'GET',
    path: '/api/docs',
    ids: {},
    baseline: () => ({}),
  },

  // Health check: no input at all; answers the same whatever is sent (coverage only).
  {
    name: 'health',
    module: 'functions/system/health',
    handler: lazy(() => import('../../../functions/system/health.ts')),
    method: 'GET',
    path: '/api/health',
    ids: {},
    baseline: () => ({}),
  },

  // The catch-all ($default): its own tests (catch-all.test.ts), no baseline to mutate.
  {
    name: 'notFound',
    module: 'functions/system/not-found',
    handler: lazy(() => import('../../../functions/system/not-found.ts')),
    method: 'GET',
    path: '/api/nothing-here',
    ids: {},
    baseline: () => ({}),
  },
];

routes.push(...openstadRoutes(routes));

export const routeNamed = (name: string): Route => {
  const route = routes.find((r) => (r.key ?? r.name) === name);
  if (!route) throw new Error(`no route ${name} in the hostile route table`);
  return route;
};

