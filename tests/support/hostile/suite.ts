/**
 * The hostile-input properties, run per route of the route table (routes.ts) against the hostile
 * world (world.ts). For every route and every kind of bad input, each answer must be a CONTRACT 4xx
 * (contract.ts) and the sites' partitions must be exactly as before (snapshot.ts).
 *
 * Budget: fixed seeds and bounded runs per property (RUNS). tests/integration/hostile takes about
 * 80 s on an idle two-core machine, where vitest runs one file at a time, DynamoDB Local start-up
 * included; about 60 s with `--maxWorkers=2`. `endOnFailure`: once something was written, later runs
 * would fail for the earlier run's write, so shrinking would only mislead; the first failing input is
 * the one.
 */
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { createSite } from '#tests/support/fixtures';
import { assertContractError, describe as show, type ContractExpectation } from '#tests/support/hostile/contract';
import { assertUnchanged, changedKeys, sitesNamed, snapshotSites, type Snapshot } from '#tests/support/hostile/snapshot';
import { send, type HostileRequest } from '#tests/support/hostile/send';
import { buildUnsealedWorld, hostileSiteConfig, sealVotes } from '#tests/support/hostile/world';
import { forgedTokens, malformedAuthorizationHeaders } from '#tests/support/hostile/tokens';
import { invalidValue } from '#tests/support/hostile/fields';
import { routeNamed, routes, type Ctx, type ObjectBody as ObjectBodySpec, type RealCursor, type Route } from '#tests/support/hostile/routes';
import { VOTE_TOGGLE_KEY } from '#tests/support/hostile/openstad-routes';
import {
  ABSENT,
  badFlagValue,
  buriedReservedKey,
  nonContainerBodies,
  badPageSize,
  deepJsonText,
  extraKeys,
  garbageCursor,
  hostileKeys,
  loneSurrogates,
  malformedJson,
  malformedPathId,
  notOneOf,
  objectText,
  oddString,
  oversizedBodyText,
  unusedId,
  wrongContentType,
} from '#tests/support/hostile/arbitraries';
import type { SiteConfigInput } from '#schemas/site-config';
import { ROUTES as DECLARED } from '#lib/openapi/routes';

/** Runs per property. */
const RUNS = { pathIds: 8, query: 14, body: 20, rawBody: 7, tokens: 8, basicAuth: 3, junk: 4, reserved: 6, text: 6 };

const BASIC_USER = 'hostile';
const BASIC_PASSWORD = 'secret';

/** A fixed seed per route and property: reproducible, yet not the same sequence everywhere. */
function seedFor(route: string, property: string): number {
  let h = 20_240_911;
  for (const c of `${route}/${property}`) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

interface CtxOptions {
  /** The attacked site's config; a function when it depends on something started in a beforeAll. */
  config?: SiteConfigInput | (() => SiteConfigInput);
  otherConfig?: SiteConfigInput;
  extra?: (ctx: Omit<Ctx, 'extra'>) => Promise<Record<string, string>>;
  /** Real cursors of every list are read only for files that attack a list. */
  cursors?: boolean;
  /** A last check after the properties, before the baselines change the world (e.g. an external store untouched). */
  afterProperties?: { name: string; check: () => void | Promise<void> };
}

/** Two sites of realistic data, a Basic Auth site, forged tokens and real cursors. */
export async function buildCtx(options: CtxOptions = {}): Promise<Ctx> {
  const [w, other, basic] = await Promise.all([
    buildUnsealedWorld((typeof options.config === 'function' ? options.config() : options.config) ?? hostileSiteConfig, 'Hostile site'),
    buildUnsealedWorld(options.otherConfig ?? hostileSiteConfig, 'Other site'),
    createSite({ ...hostileSiteConfig, basicAuth: { active: true, user: BASIC_USER, password: BASIC_PASSWORD } }, 'Basic site'),
  ]);
  await sealVotes([w, other]);
  const marker = `hostile-${w.siteId}-${Date.now()}`;
  const base = { w, other, marker, basicSiteId: basic.id, forged: await forgedTokens(w, other), realCursors: [] as RealCursor[] };
  if (options.cursors !== false) base.realCursors = await collectCursors({ ...base, extra: {} });
  return { ...base, extra: options.extra ? await options.extra(base) : {} };
}

/** Page one of every paged list (pageSize 1) on both sites: each `nextCursor` is a real cursor. */
async function collectCursors(ctx: Ctx): Promise<RealCursor[]> {
  const out: RealCursor[] = [];
  for (const route of routes.filter((r) => r.query?.paged)) {
    for (const site of [ctx.w, ctx.other]) {
      const variants: Record<string, string>[] = route.name === 'ideaList' ? [{}, { sort: 'votes_desc' }] : [{}];
      for (const variant of variants) {
        const base = route.baseline({ ...ctx, w: site });
        const req = { ...base, query: { ...base.query, ...variant, pageSize: '1' } };
        const answer = await send(route.handler, route, req);
        if (answer.status !== 200) throw new Error(`collecting cursors: ${route.name} answered ${answer.status} ${answer.text}`);
        const next = (JSON.parse(answer.text) as { metadata: { nextCursor: string | null } }).metadata.nextCursor;
        const family = 'sort' in variant ? 'ideaVotes' : route.query!.family!;
        if (next) out.push({ family, siteId: route.path.includes('{siteId}') ? site.siteId : undefined, cursor: next });
      }
    }
  }
  return out;
}

interface Probe {
  req: HostileRequest;
  expected: ContractExpectation;
  /** A failure message label (e.g. the forged token's name). */
  label?: string;
}

/**
 * Runs of a property for a route: half for the OpenStad surface's twins, which hand each request to the
 * main route's own handler (whose entry runs them all); what they add in front is the same for every input.
 */
const runsFor = (route: Route, runs: number) => (route.lenient ? Math.ceil(runs / 2) : runs);

/** A route's own name in the table (entries of the OpenStad surface share one function's). */
const nameOf = (route: Route) => route.key ?? route.name;

const watchOf = (route: Route, ctx: Ctx) => route.watches?.(ctx) ?? [ctx.w.siteId, ctx.other.siteId, ctx.basicSiteId];

/**
 * Runs a property: every generated request must get a CONTRACT 4xx and leave the watched partitions
 * as they were. The partitions are compared once, after all runs (a Query per request would double
 * the suite's cost); when they changed, the same inputs (same seed) run again with the attacked
 * site compared after every request, so the failure names the request that wrote.
 */
async function check<T>(route: Route, ctx: Ctx, property: string, arb: fc.Arbitrary<T>, build: (value: T) => Probe, numRuns: number) {
  const watch = watchOf(route, ctx);
  const before = await snapshotSites(watch);
  const run = (perRequest: Snapshot | undefined) =>
    fc.assert(
      fc.asyncProperty(arb, async (value) => {
        const probe = build(value);
        const answer = await send(route.handler, route, probe.req);
        const request = probe.label ? { label: probe.label, ...probe.req } : probe.req;
        assertContractError(answer, probe.expected, request);
        if (perRequest) await assertUnchanged([ctx.w.siteId], perRequest, show(request));
      }),
      { seed: seedFor(nameOf(route), property), numRuns, endOnFailure: true },
    );
  await run(undefined);
  const changed = changedKeys(before, await snapshotSites(watch));
  if (changed.length === 0) return;
  await run(await snapshotSites([ctx.w.siteId]));
  throw new Error(`A rejected request of "${property}" changed stored data: ${changed.join(', ')}`);
}

const without = <T extends object, K extends keyof T>(obj: T, key: K): Omit<T, K> => {
  const { [key]: _drop, ...rest } = obj;
  return rest;
};

// Properties -----------------------------------------------------------------------------------------

function pathIdsProperty(route: Route, ctx: Ctx) {
  const base = route.baseline(ctx);
  const params = Object.keys(base.params ?? {});
  const keys = Object.entries(route.keys ?? {});
  const numeric = params.filter((p) => !(p in (route.keys ?? {})));
  const others = Object.keys(route.ids);
  type Case = { change: Record<string, string | undefined>; status: number | number[] };
  const cases: fc.Arbitrary<Case>[] = [
    fc.tuple(fc.constantFrom(...numeric), malformedPathId).map(([p, v]) => ({ change: { [p]: v }, status: 400 })),
    fc.constantFrom(...params).map((p) => ({ change: { [p]: undefined }, status: 400 })),
    fc.tuple(fc.constantFrom(...numeric), unusedId).map(([p, v]) => ({ change: { [p]: String(v) }, status: 404 })),
  ];
  // Keys that are not ids: their own malformed values, well-formed unknown ones, the other site's.
  for (const [name, key] of keys) {
    cases.push(key.malformed.map((v) => ({ change: { [name]: v }, status: 400 })));
    cases.push(key.unknown.map((v) => ({ change: { [name]: v }, status: 404 })));
    cases.push(fc.constant({ change: { [name]: key.foreign(ctx) }, status: 404 }));
    cases.push(fc.constant({ change: { siteId: String(ctx.other.siteId) }, status: 404 }));
  }
  if (others.length > 0) {
    // Records of the other site in this site's path, and this site's records under the other site
    // (where this site's token no longer counts: 401, or 404 for a public read).
    cases.push(fc.constantFrom(...others).map((p) => ({ change: { [p]: String(route.ids[p]!(ctx)) }, status: 404 })));
    cases.push(fc.constant({ change: { siteId: String(ctx.other.siteId) }, status: [401, 404] }));
  }
  if (route.name.startsWith('argument') && 'argumentId' in route.ids) {
    // An argument of this site under the wrong idea of this site.
    cases.push(fc.constant({ change: { ideaId: String(ctx.w.idea2Id) }, status: 404 }));
  }
  return check(
    route,
    ctx,
    'path ids',
    fc.oneof(...cases),
    ({ change, status }) => ({ req: { ...base, params: { ...base.params, ...change } }, expected: { status } }),
    RUNS.pathIds,
  );
}

function queryProperty(route: Route, ctx: Ctx) {
  const spec = route.query!;
  const base = route.baseline(ctx);
  const changes: fc.Arbitrary<Record<string, string>>[] = [];
  if (spec.flags?.length) changes.push(fc.tuple(fc.constantFrom(...spec.flags), badFlagValue).map(([k, v]) => ({ [k]: v })));
  for (const [name, values] of Object.entries(spec.enums ?? {})) changes.push(notOneOf(values).map((v) => ({ [name]: v })));
  if (spec.ids?.length) changes.push(fc.tuple(fc.constantFrom(...spec.ids), malformedPathId).map(([k, v]) => ({ [k]: v })));
  for (const [name, arb] of Object.entries(spec.more?.(ctx) ?? {})) changes.push(arb.map((v) => ({ [name]: v })));
  if (spec.paged) {
    const real = ctx.realCursors.filter(
      (c) => c.family !== spec.family || (c.siteId !== undefined && c.siteId !== ctx.w.siteId),
    );
    changes.push(badPageSize.map((v) => ({ pageSize: v })));
    changes.push(garbageCursor.map((v) => ({ cursor: v })));
    changes.push(fc.constantFrom(...(spec.cursors?.(ctx) ?? []), ...real.map((c) => c.cursor)).map((v) => ({ cursor: v })));
    // This list's own real cursors with one bit changed (cursors are sealed: any change is a 400).
    const own = ctx.realCursors.filter((c) => c.family === spec.family && (c.siteId === undefined || c.siteId === ctx.w.siteId));
    if (own.length > 0) {
      changes.push(
        fc.tuple(fc.constantFrom(...own), fc.nat()).map(([c, bit]) => {
          const bytes = Buffer.from(c.cursor, 'base64url');
          bytes[(bit >> 3) % bytes.length]! ^= 1 << (bit & 7);
          return { cursor: bytes.toString('base64url') };
        }),
      );
    }
  }
  if (spec.combos) changes.push(spec.combos(ctx));
  return check(
    route,
    ctx,
    'query',
    fc.oneof(...changes),
    (change) => ({ req: { ...base, query: { ...base.query, ...change } }, expected: { status: 400 } }),
    RUNS.query,
  );
}

function bodyProperty(route: Route, ctx: Ctx) {
  const base = route.baseline(ctx);
  if (route.body!.shape === 'votes') return votesBodyProperty(route, ctx, base);
  const spec = route.body as Extract<Route['body'], { shape: 'object' }>;
  const fields = spec.fields(ctx);
  const baseBody = base.body as Record<string, unknown>;
  const fieldCase = fc.constantFrom(...Object.keys(fields)).chain((name) => {
    const field = fields[name]!;
    const values = spec.required?.includes(name) ? fc.oneof(invalidValue(field), fc.constant<unknown>(ABSENT)) : invalidValue(field);
    return fc.tuple(fc.constant(name), values, extraKeys).map(([n, v, extras]) => ({
      text: objectText(baseBody, [...extras, [n, v]]),
      status: field.kind === 'secret' ? [400, 404] : [400],
      what: `${n} = ${typeof v === 'symbol' ? '(absent)' : show(v)}`,
    }));
  });
  const wholeCase = fc
    .constantFrom<unknown>('x', 1, true, null, [], [baseBody], 1e308, '', '🙂', false, 0)
    .map((v) => ({ text: JSON.stringify(v), status: [400], what: `body ${show(v)}` }));
  const noBody = fc.constant({ text: '', status: [400], what: 'no body' });
  return check(
    route,
    ctx,
    'body',
    fc.oneof({ arbitrary: fieldCase, weight: 8 }, { arbitrary: wholeCase, weight: 1 }, { arbitrary: noBody, weight: 1 }),
    (c) => ({ req: { ...base, rawBody: c.text }, expected: { status: c.status }, label: c.what }),
    RUNS.body,
  );
}

function votesBodyProperty(route: Route, ctx: Ctx, base: HostileRequest) {
  const entries = base.body as Array<Record<string, unknown>>;
  const badIdeaId = invalidValue({ kind: 'id', foreign: [ctx.other.ideaId, ctx.other.idea2Id] });
  const badOpinion = fc.oneof(
    invalidValue({ kind: 'text', min: 1, max: 64 }),
    fc.constantFrom('maybe', 'YES', ' yes', 'yes ', 'no\u0000', '__proto__', 'constructor', ...loneSurrogates),
    oddString(1, 30),
  ).filter((v) => v !== 'yes' && v !== 'no');
  const entryCase = fc
    .tuple(
      fc.nat({ max: entries.length - 1 }),
      fc.oneof(
        badIdeaId.map((v) => ['ideaId', v] as [string, unknown]),
        fc.constant(['ideaId', ABSENT] as [string, unknown]),
        badOpinion.map((v) => ['opinion', v] as [string, unknown]),
      ),
      extraKeys,
    )
    .map(([i, [field, value], extras]) => {
      const parts = entries.map((entry, j) => (j === i ? objectText(entry, [...extras, [field, value]]) : JSON.stringify(entry)));
      return { text: `[${parts.join(',')}]`, what: `[${i}].${field} = ${typeof value === 'symbol' ? '(absent)' : show(value)}` };
    });
  const entry = entries[0]!;
  const wholeCase = fc
    .constantFrom<unknown>('x', 1, true, null, false, 0, [], [[]], [[entry]], [1], ['x'], [null], [entry, 'x'], [{}], { ideaId: 'x' }, Array.from({ length: 501 }, () => entry))
    .map((v) => ({ text: JSON.stringify(v), what: `body ${show(v)}` }));
  const noBody = fc.constant({ text: '', what: 'no body' });
  return check(
    route,
    ctx,
    'body',
    fc.oneof({ arbitrary: entryCase, weight: 8 }, { arbitrary: wholeCase, weight: 2 }, { arbitrary: noBody, weight: 1 }),
    (c) => ({ req: { ...base, rawBody: c.text }, expected: { status: 400 }, label: c.what }),
    RUNS.body,
  );
}

/** The details path of segments under a prefix, written here independently of lib/http (the oracle). */
const pathOf = (segments: ReadonlyArray<string | number>) =>
  segments.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '');

/**
 * Reserved keys (`__proto__`, `constructor`, `prototype`) anywhere in an otherwise valid body, at
 * any depth, inside objects and arrays: a 400 ValidationError whose one detail names the key's path;
 * and JSON bodies of the wrong kind (`false`, `0`, `"x"`, `null`...): a 400. Nothing is stored (the
 * snapshot), and nothing reaches an auth server (the users file checks its stand-in afterwards).
 */
function reservedKeysProperty(route: Route, ctx: Ctx) {
  const base = route.baseline(ctx);
  const votes = route.body!.shape === 'votes';
  const entries = votes ? (base.body as Array<Record<string, unknown>>) : [base.body as Record<string, unknown>];
  const fieldNames = votes ? ['ideaId', 'opinion', 'x'] : [...Object.keys(entries[0]!), 'extraData', 'config', 'x'];
  type Case = { text: string; path?: string; what: string };
  const members = (record: Record<string, unknown>, replace: string, text: string) => {
    const map = new Map<string, string>(Object.entries(record).map(([k, v]) => [k, JSON.stringify(v)]));
    map.set(replace, text);
    return `{${[...map].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  };
  const buried = fc
    .tuple(fc.nat({ max: entries.length - 1 }), fc.constantFrom(...fieldNames), buriedReservedKey)
    .map(([i, field, b]): Case => {
      const entry = members(entries[i]!, field, b.text);
      const text = votes ? `[${entries.map((e, j) => (j === i ? entry : JSON.stringify(e))).join(',')}]` : entry;
      const path = pathOf(votes ? [i, field, ...b.segments] : [field, ...b.segments]);
      return { text, path, what: `reserved key at ${path}` };
    });
  const topLevel = fc.constantFrom('__proto__', 'constructor', 'prototype').map((key): Case => {
    const text = members(entries[0]!, key, '1');
    return { text, path: key, what: `reserved key ${key} at the top` };
  });
  const wrongKind = fc.constantFrom(...nonContainerBodies).map((v): Case => ({ text: JSON.stringify(v), what: `body ${show(v)}` }));
  const watch = watchOf(route, ctx);
  return (async () => {
    const before = await snapshotSites(watch);
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: buried, weight: 4 }, { arbitrary: topLevel, weight: 1 }, { arbitrary: wrongKind, weight: 1 }), async (c) => {
        const req = { ...base, rawBody: c.text };
        const answer = await send(route.handler, route, req);
        assertContractError(answer, { status: 400 }, { label: c.what, ...req });
        if (c.path !== undefined) {
          const body = JSON.parse(answer.text) as { error: string; details?: Array<{ path: string }> };
          if (body.error !== 'ValidationError' || body.details?.length !== 1 || body.details[0]!.path !== c.path) {
            throw new Error(`${route.name}: ${c.what}: expected one detail at ${c.path}, got ${answer.text.slice(0, 400)}`);
          }
        }
      }),
      { seed: seedFor(nameOf(route), 'reserved keys'), numRuns: RUNS.reserved, endOnFailure: true },
    );
    await assertUnchanged(watch, before, `${route.name}: reserved keys / wrong-kind bodies`);
  })();
}

/** Routes outside the request setup (static documents, the catch-all): they read no query or body at all. */
const READS_NO_INPUT = new Set(['openapi', 'docs', 'notFound']);

/**
 * Text that is not well-formed UTF-16 (lone surrogates) in a query value or name, a body value at
 * any depth or a body key, on any route: a 400 ValidationError whose one detail names the path
 * (CONTRACT "Decided details, security"), never a 5xx, nothing stored. A name or key that holds one
 * is named with U+FFFD in its place. Routes that read no input only have to answer without a 5xx.
 */
function malformedTextProperty(route: Route, ctx: Ctx) {
  const base = route.baseline(ctx);
  const baseBody = route.body?.shape === 'object' ? (base.body as Record<string, unknown>) : undefined;
  const entries = route.body?.shape === 'votes' ? (base.body as Array<Record<string, unknown>>) : undefined;
  const queryNames = [...Object.keys(base.query ?? {}), 'sort', 'search', 'x'];
  const bodyFields = baseBody ? [...Object.keys(route.body?.shape === 'object' ? (route.body as ObjectBodySpec).fields(ctx) : {}), 'extraData', 'x'] : ['x'];
  const bad = fc.tuple(fc.constantFrom(...loneSurrogates), fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([lone, before, after]) => `${before}${lone}${after}`);
  type Case = { req: HostileRequest; path: string; what: string };
  const objectBody = (record: Record<string, unknown>, key: string, value: unknown) => objectText(record, [[key, value]]);
  const queryCases: fc.Arbitrary<Case>[] = [
    fc.tuple(fc.constantFrom(...queryNames), bad).map(([name, value]) => ({ req: { ...base, query: { ...base.query, [name]: value } }, path: name, what: `query ${name}` })),
    fc.tuple(bad, fc.string({ maxLength: 4 })).map(([name, value]) => ({ req: { ...base, query: { ...base.query, [name]: value } }, path: name.toWellFormed(), what: 'a query name' })),
  ];
  const cases: fc.Arbitrary<Case>[] = [
    // The OpenStad surface reads the query string as sent (rawQueryString), where a lone surrogate
    // cannot be written (a URL's percent-encoding is UTF-8): there it arrives as U+FFFD, a character
    // like any other, so only its bodies can carry one.
    ...(route.lenient ? [] : queryCases),
    fc.tuple(fc.constantFrom(...bodyFields), bad, fc.boolean()).map(([field, value, nested]) => {
      const inner = nested ? { note: value } : value;
      const path = nested ? `${field}.note` : field;
      if (entries) {
        const text = `[${entries.map((e, i) => (i === 0 ? objectBody(e, field, inner) : JSON.stringify(e))).join(',')}]`;
        return { req: { ...base, rawBody: text }, path: `[0].${path}`, what: `body [0].${path}` };
      }
      return { req: { ...base, rawBody: objectBody(baseBody ?? {}, field, inner) }, path, what: `body ${path}` };
    }),
    bad.map((key) => {
      const text = entries ? `[${objectBody(entries[0]!, key, 1)}]` : objectBody(baseBody ?? {}, key, 1);
      return { req: { ...base, rawBody: text }, path: entries ? `[0].${key.toWellFormed()}` : key.toWellFormed(), what: 'a body key' };
    }),
  ];
  const watch = watchOf(route, ctx);
  return (async () => {
    const before = await snapshotSites(watch);
    await fc.assert(
      fc.asyncProperty(fc.oneof(...cases), async (c) => {
        const answer = await send(route.handler, route, c.req);
        if (READS_NO_INPUT.has(route.name)) {
          if (answer.status >= 500) throw new Error(`${route.name}: ${c.what}: a ${answer.status}`);
          return;
        }
        assertContractError(answer, { status: 400 }, { label: c.what, ...c.req });
        const body = JSON.parse(answer.text) as { error: string; details?: Array<{ path: string }> };
        if (body.error !== 'ValidationError' || body.details?.length !== 1 || body.details[0]!.path !== c.path) {
          throw new Error(`${route.name}: ${c.what}: expected one detail at ${JSON.stringify(c.path)}, got ${answer.text.slice(0, 400)}`);
        }
      }),
      { seed: seedFor(nameOf(route), 'malformed text'), numRuns: RUNS.text, endOnFailure: true },
    );
    await assertUnchanged(watch, before, `${route.name}: text that is not well-formed UTF-16`);
  })();
}

function rawBodyProperty(route: Route, ctx: Ctx) {
  const base = without(route.baseline(ctx), 'body');
  const validText = JSON.stringify(route.baseline(ctx).body ?? {});
  type Case = { req: Partial<HostileRequest>; status: number; what: string };
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const cases: fc.Arbitrary<Case>[] = [
    malformedJson.map((text) => ({ req: { rawBody: text }, status: 400, what: 'malformed JSON' })),
    wrongContentType.map((type) => ({ req: { rawBody: validText, contentType: type }, status: 415, what: `content type ${type}` })),
    fc.constant({ req: { rawBody: validText, contentType: null }, status: 415, what: 'no content type' }),
    fc.constantFrom('ascii', 'multibyte', 'array').map((kind) => ({ req: { rawBody: oversizedBodyText(kind as 'ascii') }, status: 413, what: `300 KB (${kind})` })),
    fc.constantFrom('array', 'object').map((kind) => ({ req: { rawBody: deepJsonText(10_000, kind as 'array') }, status: 400, what: `10,000 levels (${kind})` })),
    fc.constant({ req: { rawBody: deepJsonText(65, 'array') }, status: 400, what: '65 levels' }),
    malformedJson.map((text) => ({ req: { rawBody: b64(text), isBase64Encoded: true }, status: 400, what: 'base64 of malformed JSON' })),
    fc.constant({ req: { rawBody: b64(oversizedBodyText('ascii')), isBase64Encoded: true }, status: 413, what: 'base64 of 300 KB' }),
  ];
  return check(
    route,
    ctx,
    'raw body',
    fc.oneof(...cases),
    (c) => ({ req: { ...base, ...c.req }, expected: { status: c.status }, label: c.what }),
    runsFor(route, RUNS.rawBody),
  );
}

/**
 * Malformed `X-Authorization` values for a route. The OpenStad surface takes a service token without
 * `Bearer` (its CMS sends it so, CONTRACT "Decided details, OpenStad v1 surface"): there that one is a
 * valid credential, not a malformed one, and any other value without the scheme is no token.
 */
const malformedFor = (route: Route) => {
  if (!route.lenient) return malformedAuthorizationHeaders;
  // Any other value without `Bearer ` is no token there (OpenStad ignored it): refused only where no token is.
  const refusesAnonymous = route.denied?.some((denied) => denied.label === 'no token' && denied.status === 401) ?? false;
  return malformedAuthorizationHeaders.filter((h) => h.label !== 'no scheme' && (refusesAnonymous || /^bearer\s/i.test(h.value)));
};

function tokensProperty(route: Route, ctx: Ctx) {
  const base = without(route.baseline(ctx), 'token');
  const siteless = !route.path.includes('{siteId}');
  // On the site-less routes a token is checked against its own site, so another site's valid token is valid there.
  const forged = ctx.forged.filter((t) => !(siteless && t.label === "another site's token"));
  type Case = { headers: Record<string, string>; label: string };
  const cases: fc.Arbitrary<Case>[] = [
    fc.constantFrom(...forged).map((t) => ({ headers: { 'x-authorization': `Bearer ${t.value}` }, label: t.label })),
    fc.constantFrom(...forged).map((t) => ({ headers: { authorization: `bearer  ${t.value}` }, label: `${t.label} (Authorization)` })),
    fc.constantFrom(...malformedFor(route)).map((h) => ({ headers: { 'x-authorization': h.value }, label: `X-Authorization: ${h.label}` })),
  ];
  return check(
    route,
    ctx,
    'tokens',
    fc.oneof(...cases),
    (c) => ({ req: { ...base, headers: { ...base.headers, ...c.headers } }, expected: { status: 401 }, label: c.label }),
    runsFor(route, RUNS.tokens),
  );
}

/** Whether the route's declaration (lib/routes) reads a token at all (`auth: 'none'` does not). */
const readsToken = (route: Route) => DECLARED.find((r) => r.operationId === (route.operationId ?? route.name))?.auth !== 'none';

/**
 * A route that reads no token (the health check, the login doors) answers a request with a forged,
 * stale or malformed token exactly as the same request without one: a probe or a browser that
 * forwards a stale token is not turned away.
 */
function tokensIgnoredProperty(route: Route, ctx: Ctx) {
  const base = without(route.baseline(ctx), 'token');
  const headers = fc.oneof(
    fc.constantFrom(...ctx.forged).map((t) => ({ 'x-authorization': `Bearer ${t.value}` })),
    fc.constantFrom(...malformedFor(route)).map((h) => ({ 'x-authorization': h.value })),
  );
  return fc.assert(
    fc.asyncProperty(headers, async (h) => {
      // Under the OpenStad surface the read is the anonymous one exactly: the refused token grants nothing.
      // A list that spans sites (the site list) also changes when another test file creates a site
      // between the two reads, so the token's answer is held to the anonymous one read just before or
      // just after it, a few times over: a real difference shows in every attempt.
      let problem = '';
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = await send(route.handler, route, base);
        const withToken = await send(route.handler, route, { ...base, headers: { ...base.headers, ...h } });
        if (withToken.status !== before.status || withToken.status >= 500) {
          throw new Error(`${nameOf(route)}: ${withToken.status} with ${show(h)}, ${before.status} without: ${withToken.text.slice(0, 300)}`);
        }
        if (!route.lenient || withToken.text === before.text) return;
        const after = await send(route.handler, route, base);
        if (withToken.text === after.text) return;
        problem = `${nameOf(route)}: another answer with ${show(h)} than without: ${withToken.text.slice(0, 300)}`;
      }
      throw new Error(problem);
    }),
    { seed: seedFor(nameOf(route), 'tokens ignored'), numRuns: runsFor(route, RUNS.tokens), endOnFailure: true },
  );
}

function basicAuthProperty(route: Route, ctx: Ctx) {
  const base = route.baseline(ctx);
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const headers = fc.constantFrom<Record<string, string>>(
    {},
    { authorization: `Basic ${b64(`${BASIC_USER}:wrong`)}` },
    { authorization: `Basic ${b64(`wrong:${BASIC_PASSWORD}`)}` },
    { authorization: `Basic ${b64(BASIC_USER)}` },
    { authorization: `Basic ${b64(`${BASIC_USER}:${BASIC_PASSWORD} `)}` },
    { authorization: `Basic ${b64(`${BASIC_USER.toUpperCase()}:${BASIC_PASSWORD}`)}` },
    { authorization: `Basic ${b64(':')}` },
    { authorization: 'Basic !!!' },
    { authorization: 'Basic' },
    { authorization: `Bearer ${b64(`${BASIC_USER}:${BASIC_PASSWORD}`)}` },
    { authorization: `Basic ${b64('🙂:🙂')}` },
  );
  return check(
    route,
    ctx,
    'basic auth',
    headers,
    (h) => ({ req: { ...base, params: { ...base.params, siteId: String(ctx.basicSiteId) }, headers: { ...base.headers, ...h } }, expected: { status: 401 } }),
    RUNS.basicAuth,
  ).then(async () => {
    // The 401 of Basic Auth carries the challenge.
    const answer = await send(route.handler, route, { ...base, params: { ...base.params, siteId: String(ctx.basicSiteId) } });
    if (!/^Basic realm=/.test(answer.headers['www-authenticate'] ?? '')) {
      throw new Error(`${route.name}: the Basic Auth 401 has no WWW-Authenticate challenge`);
    }
  });
}

/** Names a route reads, which junk must not reuse (the junk would then be a real, maybe bad, value). */
function namesUsedBy(route: Route, ctx: Ctx): Set<string> {
  const q = route.query;
  return new Set(
    [
      'pagesize', 'cursor', 'sort', ...(q?.flags ?? []), ...Object.keys(q?.enums ?? {}), ...(q?.ids ?? []), ...Object.keys(q?.more?.(ctx) ?? {}),
      'authorization', 'x-authorization', 'content-type', 'host', 'origin', 'idempotency-key', 'x-forwarded-proto',
    ].map((n) => n.toLowerCase()),
  );
}

/**
 * Unknown query parameters are ignored (CONTRACT), and so are unknown headers: a read with any
 * amount of junk beside its valid request answers exactly as without it. Reads only, so the
 * baseline can be sent as it is.
 */
function junkProperty(route: Route, ctx: Ctx) {
  const base = route.baseline(ctx);
  const used = namesUsedBy(route, ctx);
  // Well-formed text only: a lone surrogate anywhere in a query is a 400 (malformedTextProperty).
  const name = fc.oneof(fc.constantFrom(...hostileKeys), fc.string({ minLength: 1, maxLength: 20 })).filter((n) => !used.has(n.toLowerCase()) && n.isWellFormed());
  const value = fc.oneof(fc.string({ maxLength: 30 }), oddString(0, 10), fc.constant('x'.repeat(10_000))).filter((v) => v.isWellFormed());
  const junk = fc.record({
    query: fc.array(fc.tuple(name, value), { maxLength: 8 }).map((e) => Object.fromEntries(e)),
    headers: fc.array(fc.tuple(name.map((n) => n.toLowerCase()), value), { maxLength: 8 }).map((e) => Object.fromEntries(e)),
  });
  return (async () => {
    const expected = (await send(route.handler, route, base)).status;
    if (expected >= 500) throw new Error(`${route.name}: the baseline itself answered ${expected}`);
    await fc.assert(
      fc.asyncProperty(junk, async ({ query, headers }) => {
        const req = { ...base, query: { ...query, ...base.query }, headers: { ...headers, ...base.headers } };
        const answer = await send(route.handler, route, req);
        if (answer.status !== expected) throw new Error(`${route.name}: ${answer.status} instead of ${expected} with junk ${show({ query, headers })}: ${answer.text.slice(0, 300)}`);
      }),
      { seed: seedFor(nameOf(route), 'junk'), numRuns: runsFor(route, RUNS.junk), endOnFailure: true },
    );
  })();
}

async function deniedCallers(route: Route, ctx: Ctx) {
  const watch = watchOf(route, ctx);
  const before = await snapshotSites(watch);
  const base = route.baseline(ctx);
  for (const denied of route.denied ?? []) {
    const req = denied.change(ctx, base);
    const answer = await send(route.handler, route, req);
    assertContractError(answer, { status: denied.status }, { label: denied.label, ...req });
    await assertUnchanged(watch, before, `${denied.label}: ${show(req)}`);
  }
}

// The suite ------------------------------------------------------------------------------------------

/** Defines the hostile tests of the named routes; `ctx` is built once per file (the returned getter). */
export function hostileSuite(names: readonly string[], options: CtxOptions = {}): () => Ctx {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await buildCtx({ cursors: names.some((name) => routeNamed(name).query?.paged), ...options });
  });

  for (const name of names) {
    const route = routeNamed(name);
    describe(`${route.method} ${route.path} (${nameOf(route)})`, () => {
      // (Under the OpenStad surface a path id is part of the one proxy path: the main entry attacks it.)
      if (route.path.includes('{') && !route.lenient) it('bad ids in the path: 400, unknown or of another site: 404', () => pathIdsProperty(route, ctx));
      if (route.query) it('bad query values, page sizes and cursors: 400', () => queryProperty(route, ctx));
      if (route.body) it('bad bodies (one field corrupted, wrong types, odd and huge strings, hostile keys): 400', () => bodyProperty(route, ctx));
      if (route.body) it('reserved keys at any depth, and JSON bodies of the wrong kind: 400 naming the path, nothing stored', () => reservedKeysProperty(route, ctx));
      it('malformed, oversized, deep or non-JSON bodies: 400, 413, 415', () => rawBodyProperty(route, ctx));
      if (route.lenient && route.method === 'GET') {
        it('forged, expired, foreign and malformed tokens on a read: the anonymous answer (OpenStad), never more', () => tokensIgnoredProperty(route, ctx));
      } else if (readsToken(route)) it('forged, expired, foreign and malformed tokens: 401', () => tokensProperty(route, ctx));
      else it('reads no token: forged, expired, foreign and malformed ones change nothing', () => tokensIgnoredProperty(route, ctx));
      if (route.path.includes('{siteId}')) it('site Basic Auth missing or wrong: 401 with a challenge', () => basicAuthProperty(route, ctx));
      if (route.denied?.length) it('callers without the right, and other refusals of an otherwise valid request: the listed 4xx', () => deniedCallers(route, ctx));
      if (route.method === 'GET' && !NO_BASELINE_CHECK.has(route.name) && !CHANGES_ON_EVERY_CALL.has(nameOf(route))) {
        it('unknown query parameters and headers change nothing: the same answer', () => junkProperty(route, ctx));
      }
      if (route.name === 'siteCreate') {
        it('no site was created by a rejected create', async () => {
          if ((await sitesNamed(ctx.marker)) !== 0) throw new Error('a rejected site create stored a site');
        });
      }
    });
  }

  if (options.afterProperties) it(options.afterProperties.name, options.afterProperties.check);

  // Last, because they change the world: each baseline is accepted, so the mutations above were
  // refused for what they changed. Reads first, deletes last.
  const order = { GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 };
  const sane = names
    .map(routeNamed)
    .filter((r) => !NO_BASELINE_CHECK.has(r.name))
    .sort((a, b) => order[a.method] - order[b.method]);
  describe('baselines', () => {
    for (const route of sane) {
      it(`${nameOf(route)}: the valid baseline request is accepted`, async () => {
        const answer = await send(route.handler, route, route.baseline(ctx));
        if (![200, 201, 202, 302].includes(answer.status)) {
          throw new Error(`${nameOf(route)} baseline answered ${answer.status}: ${answer.text.slice(0, 500)}`);
        }
      });
    }
  });
  return () => ctx;
}

/**
 * The lone-surrogate property over every route of the table at once (one world, so it stays cheap):
 * tests/integration/hostile/malformed-text.test.ts.
 */
export function malformedTextSuite(): void {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await buildCtx({ cursors: false });
  });
  for (const route of routes) {
    it(`${route.method} ${route.path} (${nameOf(route)}): lone surrogates in any query name or value, body value or key: 400 naming the path, never a 5xx`, () =>
      malformedTextProperty(route, ctx));
  }
}

/** GETs whose answer changes with every call (OpenStad's vote toggle flips the vote it names): no two answers compare. */
const CHANGES_ON_EVERY_CALL = new Set([VOTE_TOGGLE_KEY]);

/** Routes whose baseline cannot be replayed as it is (a login code is single-use; the catch-all has none). */
const NO_BASELINE_CHECK = new Set(['oauthDigestLogin', 'notFound']);
