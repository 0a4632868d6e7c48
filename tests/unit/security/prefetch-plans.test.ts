/**
 * Attack: steer a route's read plan with a hostile request. Plans are built before anything but the
 * token is checked, from the route's own schemas' output (lib/request/setup.ts), so whatever a client
 * sends, a plan may only name keys of the request's own site partition, of the caller's own ballot
 * and stored answers, and tally items of well-formed idea ids; and it stays bounded (the one BatchGet
 * must not grow with a hostile body).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { castReadPlan } from '#lib/votes/cast';
import { ideaListReads, ideaReads } from '#lib/ideas/read-plans';
import { pad } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { contentKeys } from '#lib/store/content/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import type { Key } from '#lib/store/db/keys';
import { ideaGet } from '#lib/routes/ideas/get';
import { ideaList } from '#lib/routes/ideas/list';
import { voteCast } from '#lib/routes/votes/cast';
import { MAX_ROUND_ENTRIES } from '#schemas/votes';

/** What request setup hands a plan: a schema's output, or undefined where the input fails it. */
const validated = <T>(schema: { safeParse: (value: unknown) => { success: boolean; data?: T } }, raw: unknown): T | undefined => {
  const result = schema.safeParse(raw);
  return result.success ? result.data : undefined;
};
const round = (raw: unknown) => validated(voteCast.body, raw);

const SITE = 42;
const USER = 7;

/** What a key of a plan for (SITE, USER) may be, and nothing else. */
function allowedKey(key: Key): boolean {
  if (key.PK !== `SITE#${SITE}`) return false;
  if (key.SK === ballotKeys.ballot(SITE, USER).SK) return true;
  if (/^IDEMP#vote#7#[A-Za-z0-9_-]{1,128}$/.test(key.SK)) return true;
  const tally = /^IDEA#([0-9]+)#TALLY$/.exec(key.SK);
  if (tally) return Number.isSafeInteger(Number(tally[1])) && Number(tally[1]) > 0 && pad(Number(tally[1])) === tally[1];
  const idea = /^IDEA#([0-9]+)$/.exec(key.SK);
  return idea !== null && Number(idea[1]) > 0;
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'a#b', '#', 'x#vote#1#abc', '../BALLOT#0000000001', 'IDEA#1#TALLY', 'k'.repeat(129), ''),
);
const hostileId = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e21, -0, 0, 10_000_000_000),
  hostileString,
);
const voteEntry = fc.oneof(
  fc.record({ ideaId: hostileId, opinion: fc.oneof(hostileString, fc.constant('yes')) }, { requiredKeys: [] }),
  fc.record({ ideaId: fc.integer({ min: 1, max: 2 ** 40 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const rawBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  voteEntry,
  fc.array(voteEntry, { maxLength: 60 }),
  // Own __proto__ / constructor keys, as JSON.parse makes them.
  fc.constantFrom('{"__proto__":{"ideaId":1}}', '[{"ideaId":1,"__proto__":{"ideaId":2}}]', '{"constructor":{"prototype":{"ideaId":3}}}').map((t) => JSON.parse(t) as unknown),
);
const headers = fc.dictionary(fc.constantFrom('idempotency-key', 'Idempotency-Key', 'x-authorization', 'host', '__proto__'), hostileString, { maxKeys: 3 });

describe('the vote round plan', () => {
  it('names only its own site, ballot, stored answers and well-formed tally keys, whatever the body and headers', () => {
    fc.assert(
      fc.property(rawBody, headers, (body, head) => {
        const plan = castReadPlan(SITE, USER, round(body), head as Record<string, string | undefined>);
        expect(plan.consistent).toBe(true);
        for (const key of plan.keys) expect(allowedKey(key), JSON.stringify(key)).toBe(true);
        expect(plan.keys.length).toBeLessThanOrEqual(2 + MAX_ROUND_ENTRIES);
      }),
      { numRuns: 400, seed: 17 },
    );
  });

  it('a body past the round limit, or with duplicates, plans no more than the ballot and distinct ideas', () => {
    const huge = Array.from({ length: MAX_ROUND_ENTRIES + 1 }, (_, i) => ({ ideaId: i + 1 }));
    expect(castReadPlan(SITE, USER, round(huge), {}).keys).toEqual([ballotKeys.ballot(SITE, USER)]);
    const copies = Array.from({ length: MAX_ROUND_ENTRIES }, () => ({ ideaId: 3 }));
    expect(castReadPlan(SITE, USER, round(copies), {}).keys).toEqual([ballotKeys.ballot(SITE, USER), ideaKeys.ideaTally(SITE, 3)]);
  });

  it('a malformed Idempotency-Key is left out of the plan (its 400 comes later), never sent as a key', () => {
    for (const bad of ['a#b', '', 'k'.repeat(129), 'é', '../x']) {
      expect(castReadPlan(SITE, USER, round({ ideaId: 1 }), { 'idempotency-key': bad }).keys).toEqual([ballotKeys.ballot(SITE, USER), ideaKeys.ideaTally(SITE, 1)]);
    }
    expect(castReadPlan(SITE, USER, round({ ideaId: 1 }), { 'idempotency-key': 'ok_1-2' }).keys).toContainEqual(ballotKeys.idempotency(SITE, `vote#${USER}`, 'ok_1-2'));
  });
});

describe('the idea page and list plans', () => {
  const input = (pathParameters: Record<string, string>, query: Record<string, string>, userId: number | undefined) => ({
    siteId: SITE,
    userId,
    params: validated(ideaGet.params, pathParameters),
    query: validated(ideaGet.query, query),
    listQuery: validated(ideaList.query, query),
  });

  it('read only the request site, and the ballot only of the verified caller', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('siteId', 'ideaId', '__proto__'), hostileString.chain((s) => fc.constantFrom(s, '1', '12', '999999999999999'))),
        fc.dictionary(fc.constantFrom('includeUserVote', 'includeVoteCount', 'sort', '__proto__'), fc.oneof(hostileString, fc.constantFrom('1', 'true'))),
        fc.option(fc.constant(USER), { nil: undefined }),
        (pathParameters, query, userId) => {
          const { params, listQuery, ...given } = input(pathParameters, query, userId);
          // Request setup plans only for path params that pass the route's schema.
          const plans = [params ? ideaReads({ ...given, params }) : undefined, ideaListReads({ ...given, query: listQuery })];
          for (const plan of plans) {
            for (const key of plan?.keys ?? []) {
              expect(allowedKey(key), JSON.stringify(key)).toBe(true);
              if (key.SK.startsWith('BALLOT#')) expect(userId).toBe(USER);
            }
          }
        },
      ),
      { numRuns: 400, seed: 17 },
    );
  });

  it('a path naming another site still plans keys of the request site only', () => {
    const { params, ...given } = input({ siteId: "43", ideaId: "5" }, { includeUserVote: "1" }, USER);
    const plan = ideaReads({ ...given, params: params! });
    expect(plan?.keys).toEqual([contentKeys.idea(SITE, 5), ideaKeys.ideaTally(SITE, 5), ballotKeys.ballot(SITE, USER)]);
  });
});
