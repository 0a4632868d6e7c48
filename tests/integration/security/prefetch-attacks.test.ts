/**
 * Attack: the request's first read (one BatchGet of the site, the token's user and the keys
 * a route plans from the RAW request, served take-once from a request-scoped cache) and the new vote
 * store (per-idea tallies, vote ids from the ballot's sequence, the journal of large rounds).
 *
 * What must hold: nothing of one site or one request is served to another; a prefetched item never
 * stands in for a fresher one that a conditional write depends on; no client input yields a 5xx; the
 * CONTRACT error order is unchanged; tallies always equal what the ballots hold.
 */
import { onceBefore, tallySks, type Sent } from '#tests/support/intercept';
import { READ_AHEAD_IDEAS } from '#lib/votes/cast';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import type { VoteRecord } from '#schemas/votes';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { issueToken } from '#lib/auth/jwt';
import { getBallot } from '#lib/store/ballots/ballots';
import { sitePk } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { userKeys } from '#lib/store/users/keys';
import { encodeCursor } from '#lib/store/db/cursor';
import { cursorScope } from '#lib/store/db/query';
import { FIRST_COUNTERLESS_VOTE_ID, voteIdOf, votesPerUser } from '#lib/votes/ids';
import { listIdeasQuery } from '#schemas/idea';
import { counterUserId, createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { keysRead } from '#tests/support/keys-read';
import { send, type HostileRequest } from '#tests/support/hostile/send';
import { allBallots, castVotes, createIdeas, deleteIdea, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';
import { handler as getIdeaHandler } from '../../../functions/ideas/get.ts';
import { handler as listIdeasHandler } from '../../../functions/ideas/list.ts';
import { handler as voteHandler } from '../../../functions/votes/cast.ts';

/** Vote counts public: these attacks read pages in the order by votes, which a site shows everyone only then. */
const PUBLIC_VOTES = { isViewable: true } as const;


describe('a large round (more ideas than one transaction) against an idea deleted while it is planned', () => {
  it.each([
    ['a count round (replace)', { voteType: 'count', withExisting: 'replace', maxIdeas: 100 }],
    ["a site's default votes config (likes)", {}],
  ] as const)('%s of 100 ideas never leaves a vote on the deleted idea nor a tally that disagrees with the ballots', async (_label, votes) => {
    // 99 changes go in the first transaction with their "still votable" check, the rest in the journal.
    const site = await votingSite(votes);
    const ideas = await createIdeas(site.id, 100);
    const user = await createUser(site.id);
    const ballotSk = ballotKeys.ballot(site.id, user.id).SK;
    let victim: number | undefined;
    const fired = onceBefore(
      (sent) => sent.commandName === 'TransactWriteItemsCommand' && JSON.stringify(sent.input).includes(ballotSk) && tallySks(sent.input).length > 0,
      async (sent) => {
        // An idea of the round whose change is NOT in this first transaction: it rides in the journal.
        const inFirst = new Set(tallySks(sent.input));
        victim = ideas.find((id) => !inFirst.has(ideaKeys.ideaTally(site.id, id).SK));
        // Its deletion runs to the end between the round's read and its commit (a concurrent admin).
        if (victim !== undefined) await deleteIdea(site.id, victim);
      },
    );
    const res = await castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })));
    expect(fired()).toBe(true);
    expect(victim, 'every change of the round fit the first transaction').toBeDefined();

    // Either the round is refused for the vanished idea, or it is stored without it: never with it.
    expect([200, 400]).toContain(res.status);
    const ballot = await getBallot(site.id, user.id, true);
    expect(Object.keys(ballot?.votes ?? {})).not.toContain(String(victim));
    await expectTalliesMatchBallots(site.id);
  });
});

// ---------------------------------------------------------------------------------------------------

const ideaGet = (siteId: number, ideaId: number | string, query: Record<string, string> = {}, token?: string) =>
  invoke<IdeaRecord>(getIdeaHandler, { path: '/api/site/{siteId}/idea/{ideaId}', params: { siteId, ideaId }, query, ...(token ? { token } : {}) });
const ideaList = (siteId: number, query: Record<string, string> = {}, token?: string) =>
  invoke<ListEnvelope<IdeaRecord>>(listIdeasHandler, { path: '/api/site/{siteId}/idea', params: { siteId }, query, ...(token ? { token } : {}) });

/** A user item written straight to a site with a chosen id (the twin of another site's user). */
async function putUserWithId(siteId: number, id: number, role: string): Promise<void> {
  const now = new Date().toISOString();
  await doc.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...userKeys.user(siteId, id), id, siteId, role, email: `twin${id}@example.org`, firstName: 'Twin', lastName: 'User', nickName: null, extraData: {}, createdAt: now, updatedAt: now },
    }),
  );
}

describe("site A's token on site B's routes", () => {
  let siteA: { id: number };
  let siteB: { id: number };
  let userA: TestUser;
  let ideasB: number[];
  beforeAll(async () => {
    siteA = await votingSite({ ...PUBLIC_VOTES, voteType: 'likes' });
    siteB = await votingSite({ ...PUBLIC_VOTES, voteType: 'likes' });
    userA = await createUser(siteA.id);
    ideasB = await createIdeas(siteB.id, 3);
    // Site B holds a user with the very id of A's user (an admin there), who has voted: if A's token
    // spoke for B, B's prefetch would read, serve and write as this twin.
    await putUserWithId(siteB.id, userA.id, 'admin');
    const twinToken = await issueToken({ userId: userA.id, siteId: siteB.id });
    expect((await castVotes(siteB.id, twinToken, [{ ideaId: ideasB[0]! }])).status).toBe(200);
  });

  it('a vote round is 401 and the twin ballot on B is untouched', async () => {
    const before = await getBallot(siteB.id, userA.id, true);
    const res = await castVotes(siteB.id, userA.token, [{ ideaId: ideasB[1]! }], { 'Idempotency-Key': 'cross-site' });
    expect(res.status).toBe(401);
    expect(await getBallot(siteB.id, userA.id, true)).toEqual(before);
    await expectTalliesMatchBallots(siteB.id);
  });

  it("an idea page or list asking for the caller's vote is 401, never the twin's vote", async () => {
    for (const res of [
      await ideaGet(siteB.id, ideasB[0]!, { includeUserVote: '1', includeVoteCount: '1' }, userA.token),
      await ideaList(siteB.id, { includeUserVote: '1' }, userA.token),
      await ideaList(siteB.id, { includeUserVote: '1', sort: 'votes_desc' }, userA.token),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain('userVote');
    }
  });

  it("a round on B naming ideas that exist only on A is a 400 and moves no tally of A", async () => {
    const onlyOnA = await createIdeas(siteA.id, 6);
    const idOnlyOnA = onlyOnA.find((id) => !ideasB.includes(id))!;
    const userB = await createUser(siteB.id);
    const res = await castVotes(siteB.id, userB.token, [{ ideaId: idOnlyOnA }]);
    expect(res.status).toBe(400);
    expect(await expectTalliesMatchBallots(siteA.id)).toEqual({});
  });
});

describe('plans steered by raw input', () => {
  let site: { id: number };
  let ideas: number[];
  beforeAll(async () => {
    site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 200 });
    ideas = await createIdeas(site.id, 150);
  });

  it.each([
    ['a #', 'a#b'],
    ['a key naming another scope', 'x#vote#1#abc'],
    ['a URL-encoded #', 'a%23b'],
    ['a dot-dot path', '../BALLOT'],
    ['unicode', 'sleutel-é'],
    ['129 characters', 'k'.repeat(129)],
    ['2,000 characters (past a sort key)', 'k'.repeat(2000)],
    ['a space', 'a b'],
  ])('an Idempotency-Key with %s is a 400, nothing written', async (_label, key) => {
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }], { 'Idempotency-Key': key });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await getBallot(site.id, user.id, true)).toBeUndefined();
  });

  it("the same Idempotency-Key of two users never replays one user's answer to the other", async () => {
    const [one, two] = await Promise.all([createUser(site.id), createUser(site.id)]);
    const key = 'shared-key-1';
    const first = await castVotes(site.id, one.token, [{ ideaId: ideas[0]! }], { 'Idempotency-Key': key });
    const second = await castVotes(site.id, two.token, [{ ideaId: ideas[1]! }], { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.map((v) => [v.ideaId, v.userId])).toEqual([[ideas[1], two.id]]);
  });

  it('a round of 150 ideas (more than one BatchGet and one transaction) is stored whole, tallies exact', async () => {
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toHaveLength(150);
    expect(new Set(res.body.map((v: { id: number }) => v.id)).size).toBe(150);
    await expectTalliesMatchBallots(site.id);
  });

  it('a round of 500 copies of one idea is answered (never 5xx) and counts at most once', async () => {
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, Array.from({ length: 500 }, () => ({ ideaId: ideas[2]! })));
    expect(res.status).toBeLessThan(500);
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(tallies[ideas[2]!]?.['yes'] ?? 0).toBeLessThanOrEqual(1);
  });

  it('ideas with huge ids (past the 10 digits keys are padded to) are a 400, never 5xx', async () => {
    const user = await createUser(site.id);
    for (const ideaId of [Number.MAX_SAFE_INTEGER, 99_999_999_999, 10_000_000_000]) {
      const res = await castVotes(site.id, user.token, [{ ideaId }, { ideaId: ideas[0]! }]);
      expect(res.status, String(ideaId)).toBe(400);
    }
    expect(await getBallot(site.id, user.id, true)).toBeUndefined();
  });
});

describe('a prefetched item that went stale before the conditional write it plans', () => {
  const isRoundOf = (siteId: number, userId: number) => (sent: Sent) =>
    sent.commandName === 'TransactWriteItemsCommand' && JSON.stringify(sent.input).includes(`"${ballotKeys.ballot(siteId, userId).SK}"`);

  it("another round of the same user commits between this round's read and its commit: re-planned, exact", async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'merge', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 4);
    const user = await createUser(site.id);
    let meanwhile: { status: number } | undefined;
    const fired = onceBefore(isRoundOf(site.id, user.id), async () => {
      meanwhile = await castVotes(site.id, user.token, [{ ideaId: ideas[1]! }]);
    });
    const res = await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }]);
    expect(fired()).toBe(true);
    expect(meanwhile?.status).toBe(200);
    expect(res.status).toBe(200);
    // Merge keeps both: the late round was planned again from the ballot the other one wrote.
    const ballot = (await getBallot(site.id, user.id, true))!;
    expect(Object.keys(ballot.votes).map(Number).sort((a, b) => a - b)).toEqual([ideas[0], ideas[1]]);
    expect(ballot.version).toBe(2);
    const ids = Object.values(ballot.votes).map((v) => v.id);
    expect(new Set(ids).size).toBe(2);
    await expectTalliesMatchBallots(site.id);
  });

  it('a duplicate with the same Idempotency-Key commits first: this one replays its answer, written once', async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    const body = [{ ideaId: ideas[0]! }, { ideaId: ideas[1]!, opinion: 'yes' }];
    const headers = { 'Idempotency-Key': 'retried-round' };
    let meanwhile: { status: number; body: unknown } | undefined;
    onceBefore(isRoundOf(site.id, user.id), async () => {
      meanwhile = await castVotes(site.id, user.token, body, headers);
    });
    const res = await castVotes(site.id, user.token, body, headers);
    expect(meanwhile?.status).toBe(200);
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.body).toEqual(meanwhile!.body);
    expect((await getBallot(site.id, user.id, true))!.version).toBe(1);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [ideas[0]!]: { yes: 1 }, [ideas[1]!]: { yes: 1 } });
  });

  it('the same key with ANOTHER round committed meanwhile: 409, the first round stands', async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    const headers = { 'Idempotency-Key': 'reused-key' };
    onceBefore(isRoundOf(site.id, user.id), async () => {
      expect((await castVotes(site.id, user.token, [{ ideaId: ideas[1]! }], headers)).status).toBe(200);
    });
    const res = await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }], headers);
    expect(res.status).toBe(409);
    expect(Object.keys((await getBallot(site.id, user.id, true))!.votes)).toEqual([String(ideas[1])]);
    await expectTalliesMatchBallots(site.id);
  });

  it("an idea the caller voted on is deleted (its cascade rewrites the ballot) between the read and the commit", async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'merge', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }])).status).toBe(200);
    const fired = onceBefore(isRoundOf(site.id, user.id), () => deleteIdea(site.id, ideas[0]!));
    const res = await castVotes(site.id, user.token, [{ ideaId: ideas[1]! }]);
    expect(fired()).toBe(true);
    expect(res.status).toBe(200);
    expect(Object.keys((await getBallot(site.id, user.id, true))!.votes)).toEqual([String(ideas[1])]);
    await expectTalliesMatchBallots(site.id);
  });

  it('the idea of a small round is deleted between the read and the commit: 400, nothing stored', async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    onceBefore(isRoundOf(site.id, user.id), () => deleteIdea(site.id, ideas[1]!));
    const res = await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }, { ideaId: ideas[1]! }]);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(`Idea ${ideas[1]} does not exist`);
    expect(await getBallot(site.id, user.id, true)).toBeUndefined();
    await expectTalliesMatchBallots(site.id);
  });
});

describe('take-once under concurrent invocations in one process', () => {
  it("each of 30 parallel idea pages shows its own caller's vote, never another request's ballot", async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const users = await Promise.all(Array.from({ length: 30 }, () => createUser(site.id)));
    // Users with an even index have voted on the idea.
    for (const [i, user] of users.entries()) if (i % 2 === 0) expect((await castVotes(site.id, user.token, [{ ideaId: idea! }])).status).toBe(200);
    for (let round = 0; round < 3; round++) {
      const pages = await Promise.all(
        users.flatMap((user) => [
          ideaGet(site.id, idea!, { includeUserVote: '1', includeVoteCount: '1' }, user.token),
          ideaList(site.id, { includeUserVote: '1' }, user.token),
        ]),
      );
      for (const [n, page] of pages.entries()) {
        expect(page.status).toBe(200);
        const record = n % 2 === 0 ? (page.body as IdeaRecord) : (page.body as ListEnvelope<IdeaRecord>).records[0]!;
        const voted = Math.floor(n / 2) % 2 === 0;
        expect(record.userVote, `user ${Math.floor(n / 2)}`).toEqual(voted ? { opinion: 'yes' } : null);
      }
    }
  });

  it('parallel rounds of many users on the same ideas, with readers in between: exact tallies, own answers', async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 5 });
    const ideas = await createIdeas(site.id, 5);
    const users = await Promise.all(Array.from({ length: 20 }, () => createUser(site.id)));
    const results = await Promise.all(
      users.flatMap((user, i) => [
        castVotes(site.id, user.token, [{ ideaId: ideas[i % 5]! }, { ideaId: ideas[(i + 1) % 5]! }], { 'Idempotency-Key': `k${i % 3}` }),
        ideaGet(site.id, ideas[i % 5]!, { includeUserVote: '1' }, user.token),
      ]),
    );
    for (const [n, res] of results.entries()) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (n % 2 === 1) continue;
      const user = users[n / 2]!;
      expect((res.body as VoteRecord[]).map((v) => v.userId)).toEqual([user.id, user.id]);
    }
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.values(tallies).reduce((sum, t) => sum + (t['yes'] ?? 0), 0)).toBe(40);
  });
});

// ---------------------------------------------------------------------------------------------------

const VOTE_ROUTE = { method: 'POST', path: '/api/site/{siteId}/vote' };
const IDEA_ROUTE = { method: 'GET', path: '/api/site/{siteId}/idea/{ideaId}' };
const LIST_ROUTE = { method: 'GET', path: '/api/site/{siteId}/idea' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const errorOf = (answer: { text: string }) => JSON.parse(answer.text) as { status: number; error: string; message: string };

describe('client input that the first read sees raw never yields a 5xx', () => {
  let site: { id: number };
  let ideas: number[];
  let voter: TestUser;
  beforeAll(async () => {
    site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    ideas = await createIdeas(site.id, 3);
    voter = await createUser(site.id);
  });

  const bodies: Array<[string, string]> = [
    ['malformed JSON', '{"ideaId": 1'],
    ['an empty array', '[]'],
    ['an own __proto__ key', '{"__proto__": {"ideaId": 1}}'],
    ['__proto__ as an idea id', '[{"ideaId": "__proto__"}]'],
    ['__proto__ inside an entry', '[{"ideaId": 1, "__proto__": {"ideaId": 2}}]'],
    ['constructor.prototype', '{"constructor": {"prototype": {"ideaId": 1}}}'],
    ['a huge float id', '[{"ideaId": 1e308}]'],
    ['minus zero', '[{"ideaId": -0}]'],
    ['an unsafe integer id', '[{"ideaId": 9007199254740993}]'],
    ['a string id', '[{"ideaId": "1"}]'],
    ['501 entries', JSON.stringify(Array.from({ length: 501 }, (_, i) => ({ ideaId: i + 1 })))],
    ['20,000 entries', JSON.stringify(Array.from({ length: 20_000 }, () => ({ ideaId: 1 })))],
    ['deeply nested arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['an array of arrays', '[[{"ideaId": 1}]]'],
    ['null', 'null'],
    ['a number', '7'],
    ['a string', '"vote"'],
    ['an opinion of 10,000 characters', JSON.stringify([{ ideaId: 1, opinion: 'y'.repeat(10_000) }])],
    ['an opinion with a lone surrogate', '[{"ideaId": 1, "opinion": "\\ud800"}]'],
  ];

  it.each(bodies)('a vote round with %s and a valid token is a 4xx', async (_label, rawBody) => {
    const answer = await send(voteHandler, VOTE_ROUTE, { params: { siteId: String(site.id) }, rawBody, token: voter.token, headers: { 'idempotency-key': 'k1' } });
    expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  });

  it('any JSON body with any Idempotency-Key and a valid token: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.record({ ideaId: fc.oneof(fc.integer(), fc.constantFrom(...ideas), fc.double(), fc.string()), opinion: fc.oneof(fc.string(), fc.constant('yes')) }, { requiredKeys: [] }), { maxLength: 120 })),
        fc.option(fc.string({ maxLength: 140 }), { nil: undefined }),
        async (body, key) => {
          const answer = await send(voteHandler, VOTE_ROUTE, { params: { siteId: String(site.id) }, body, token: voter.token, headers: key === undefined ? {} : { 'idempotency-key': key } });
          expect(answer.status, `${JSON.stringify(body).slice(0, 200)} -> ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 60, seed: 17 },
    );
    await expectTalliesMatchBallots(site.id);
  });

  it.each([
    ['includeUserVote=__proto__', { includeUserVote: '__proto__' }],
    ['includeUserVote=constructor', { includeUserVote: 'constructor' }],
    ['includeUserVote=toString', { includeUserVote: 'toString' }],
    ['__proto__=1', { __proto__: '1' }],
    ['includeUserVote=1,1', { includeUserVote: '1,1' }],
    ['sort=votes_desc with a garbage cursor', { sort: 'votes_desc', cursor: 'x'.repeat(2048), includeUserVote: '1' }],
    ['sort=__proto__', { sort: '__proto__', includeUserVote: '1' }],
  ])('the idea page and list with %s and a valid token are never a 5xx', async (_label, query) => {
    // An own `__proto__` key, as a query-string parser may make it.
    const own = JSON.parse(JSON.stringify(query).replace('"__proto__"', '"__proto__"')) as Record<string, string>;
    for (const answer of [
      await send(getIdeaHandler, IDEA_ROUTE, { params: { siteId: String(site.id), ideaId: String(ideas[0]) }, query: own, token: voter.token }),
      await send(listIdeasHandler, LIST_ROUTE, { params: { siteId: String(site.id) }, query: own, token: voter.token }),
    ]) {
      expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
    }
  });

  it.each(['__proto__', 'constructor', '1#TALLY', '99999999999999999999', '9007199254740993', '1e3', '0', '-1'])(
    'an idea page with ideaId %s and a valid token asking for the vote is a 400, never a 5xx',
    async (ideaId) => {
      const answer = await send(getIdeaHandler, IDEA_ROUTE, { params: { siteId: String(site.id), ideaId }, query: { includeUserVote: '1' }, token: voter.token });
      expect(answer.status, answer.text).toBe(400);
    },
  );

  it('a 15-digit idea id that no idea has, asking for everything, is a 404', async () => {
    const answer = await send(getIdeaHandler, IDEA_ROUTE, {
      params: { siteId: String(site.id), ideaId: '999999999999999' },
      query: { includeUserVote: '1', includeVoteCount: '1', includeArguments: '1' },
      token: voter.token,
    });
    expect(answer.status, answer.text).toBe(404);
  });
});

describe('the CONTRACT error order, with the first read in front of it', () => {
  const USER = 'city';
  const PASSWORD = 'closed-for-now';
  let open: { id: number };
  let closed: { id: number };
  let openVoter: TestUser;
  let closedVoter: TestUser;
  let closedIdeas: number[];
  let unknownSite: number;
  const bigRound = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ ideaId: i + 1 })));
  beforeAll(async () => {
    open = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    closed = await votingSite({ ...PUBLIC_VOTES, voteType: 'count' }, { basicAuth: { active: true, user: USER, password: PASSWORD } });
    closedIdeas = await createIdeas(closed.id, 2);
    openVoter = await createUser(open.id);
    closedVoter = await createUser(closed.id);
    unknownSite = (await createSite({ votes: PUBLIC_VOTES })).id + 1_000_000;
  });

  type VoteRequest = Omit<HostileRequest, 'params'>;
  const vote = (siteId: number, req: VoteRequest) => send(voteHandler, VOTE_ROUTE, { params: { siteId: String(siteId) }, ...req });

  it('unknown site: 404 first, whatever the token (bad, or valid for another site), body or key', async () => {
    const requests: VoteRequest[] = [
      { rawBody: '{', token: 'not-a-jwt' },
      { rawBody: bigRound, token: openVoter.token, headers: { 'idempotency-key': 'a#b' } },
      { rawBody: bigRound, token: SERVICE_TOKEN },
      { rawBody: '[]', headers: { 'x-authorization': 'Token x' } },
    ];
    for (const req of requests) {
      const answer = await vote(unknownSite, req);
      expect(answer.status, answer.text).toBe(404);
    }
  });

  it("a Basic-Auth-closed site: 401 Basic first, even for its own user's valid token, a huge round and a bad key", async () => {
    const requests: VoteRequest[] = [
      { rawBody: bigRound, token: closedVoter.token, headers: { 'idempotency-key': 'a#b' } },
      { rawBody: '{', token: closedVoter.token },
      { rawBody: bigRound, token: 'not-a-jwt' },
      { rawBody: bigRound, token: openVoter.token },
    ];
    for (const req of requests) {
      const answer = await vote(closed.id, req);
      expect(answer.status, answer.text).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
    const withCredentials = await vote(closed.id, { body: [{ ideaId: closedIdeas[0] }], token: closedVoter.token, headers: { authorization: basic(USER, PASSWORD) } });
    // X-Authorization carries the token, Authorization the site's Basic Auth: both pass.
    expect(withCredentials.status, withCredentials.text).toBe(200);
  });

  it('malformed JSON comes before the token (400 with a bad token); a bad token before the schema (401)', async () => {
    expect((await vote(open.id, { rawBody: '{"ideaId": ', token: 'not-a-jwt' })).status).toBe(400);
    expect((await vote(open.id, { rawBody: '{"ideaId": ', token: openVoter.token })).status).toBe(400);
    expect((await vote(open.id, { rawBody: '[{"ideaId": "x"}]', token: 'not-a-jwt' })).status).toBe(401);
    expect((await vote(open.id, { rawBody: '[{"ideaId": "x"}]' })).status).toBe(401);
  });

  it('a caller who may not vote gets 403 before the body schema, with or without a plan read ahead', async () => {
    const answer = await vote(open.id, { rawBody: '[{"ideaId": "x"}]', token: SERVICE_TOKEN });
    expect(answer.status, answer.text).toBe(403);
    const closedVoting = await votingSite({ isActive: false });
    const member = await createUser(closedVoting.id);
    const refused = await vote(closedVoting.id, { rawBody: '[{"ideaId": 1}]', token: member.token });
    expect(refused.status, refused.text).toBe(403);
    expect(errorOf(refused).error).toBe('Forbidden');
  });

  it('a bad Idempotency-Key with a valid round is a 400 naming the key (not a 5xx)', async () => {
    const ideas = await createIdeas(open.id, 1);
    const badKey = await vote(open.id, { body: [{ ideaId: ideas[0] }], token: openVoter.token, headers: { 'idempotency-key': 'a#b' } });
    expect(badKey.status, badKey.text).toBe(400);
    expect(errorOf(badKey).message).toMatch(/Idempotency-Key/);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('GSI3 cursors of the order by votes, sealed with the server key (as an insider or a bug would make them)', () => {
  let site: { id: number };
  let other: { id: number };
  let ideas: number[];
  beforeAll(async () => {
    site = await votingSite({ ...PUBLIC_VOTES, voteType: 'likes' });
    other = await votingSite({ ...PUBLIC_VOTES, voteType: 'likes' });
    ideas = await createIdeas(site.id, 4);
    await createIdeas(other.id, 4);
    const voters = await Promise.all([createUser(site.id), createUser(site.id)]);
    for (const voter of voters) expect((await castVotes(site.id, voter.token, [{ ideaId: ideas[1]! }])).status).toBe(200);
  });

  /** A cursor sealed exactly as the list seals its own, for `siteId`'s `sort` list, holding `position`. */
  function sealed(siteId: number, sort: 'votes_desc' | 'votes_asc', position: Record<string, unknown>, pk = sitePk(siteId)): string {
    const page = listIdeasQuery.parse({ sort });
    const scope = cursorScope({ siteId, list: 'ideas-by-votes', options: { sort, statuses: undefined, binding: null } }, page);
    return encodeCursor({ PK: pk, sort, ...position }, scope)!;
  }
  const list = (siteId: number, sort: string, cursor: string) => ideaList(siteId, { sort, cursor, pageSize: '2', includeVoteCount: '1' });

  it('the sealing here is the list\'s own: a real position pages on (so the forgeries below reach the checks)', async () => {
    const first = await ideaList(site.id, { sort: 'votes_desc', pageSize: '1', includeVoteCount: '1' });
    expect(first.body.records.map((r) => r.id)).toEqual([ideas[1]]);
    const res = await list(site.id, 'votes_desc', sealed(site.id, 'votes_desc', { yes: 2, id: ideas[1] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.records.map((r) => r.id)).not.toContain(ideas[1]);
  });

  it.each([
    ['a negative yes', { yes: -1, id: 1 }],
    ['a fractional yes', { yes: 0.5, id: 1 }],
    ['an unsafe yes', { yes: 2 ** 60, id: 1 }],
    ['a yes of 1e300', { yes: 1e300, id: 1 }],
    ['a string yes', { yes: '1', id: 1 }],
    ['a negative id', { yes: 0, id: -5 }],
    ['an unsafe id', { yes: 0, id: 2 ** 60 }],
    ['no id', { yes: 0 }],
  ])('%s is a 400', async (_label, position) => {
    const res = await list(site.id, 'votes_desc', sealed(site.id, 'votes_desc', position));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it.each([
    ['the largest safe yes', { yes: Number.MAX_SAFE_INTEGER, id: 1 }],
    // The list's own position past a count it skipped (one the audit reports) may carry id 0.
    ['a zero id', { yes: 0, id: 0 }],
    ['the largest safe id (past the 10 padded digits of keys)', { yes: 0, id: Number.MAX_SAFE_INTEGER }],
    ['an id of 11 digits', { yes: 1, id: 10_000_000_000 }],
    ['an id no idea has', { yes: 1, id: 999_999 }],
  ])('%s is answered (200 or 400), never a 5xx', async (_label, position) => {
    for (const sort of ['votes_desc', 'votes_asc'] as const) {
      const res = await list(site.id, sort, sealed(site.id, sort, position));
      expect([200, 400], JSON.stringify(res.body)).toContain(res.status);
    }
  });

  it("another site's cursor, or this site's cursor naming another site's partition, or of the other order, is a 400", async () => {
    expect((await list(site.id, 'votes_desc', sealed(other.id, 'votes_desc', { yes: 0, id: 1 }))).status).toBe(400);
    expect((await list(site.id, 'votes_desc', sealed(site.id, 'votes_desc', { yes: 0, id: 1 }, sitePk(other.id)))).status).toBe(400);
    expect((await list(site.id, 'votes_asc', sealed(site.id, 'votes_desc', { yes: 0, id: 1 }))).status).toBe(400);
  });
});

describe('vote ids (a keyed permutation of the user id and n) and votes on deleted ideas', () => {
  it("two users' votes never share an id, and no id tells its user: each is the permutation's, not the user's range", async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 5);
    // Both kinds of user id: from the retired counter (the first input layout) and timed (the second).
    const users = await Promise.all(Array.from({ length: 4 }, (_, i) => createUser(site.id, 'member', i % 2 === 0 ? {} : { id: counterUserId() })));
    const ids: number[] = [];
    for (const user of users) {
      for (const round of [ideas.slice(0, 3), ideas.slice(2, 5)]) {
        const res = await castVotes(site.id, user.token, round.map((ideaId) => ({ ideaId })));
        expect(res.status).toBe(200);
        for (const vote of res.body as Array<{ id: number }>) {
          expect(Number.isSafeInteger(vote.id) && vote.id > FIRST_COUNTERLESS_VOTE_ID).toBe(true);
          // The old layout (10^12 + userId * 10^6 + n) and the plain one (userId * 2^20 + n) are both gone.
          expect(Math.floor((vote.id - FIRST_COUNTERLESS_VOTE_ID) / 1_000_000)).not.toBe(user.id);
          expect(Math.floor((vote.id - FIRST_COUNTERLESS_VOTE_ID) / votesPerUser(user.id))).not.toBe(user.id);
        }
      }
      ids.push(...Object.values((await getBallot(site.id, user.id, true))!.votes).map((v) => v.id));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([
    ['a timed user id (16,383 votes)', () => ({})],
    ['a user id of the retired counter (1,048,575 votes)', () => ({ id: counterUserId() })],
  ])("a ballot at the end of its user's range refuses the round (409) instead of spilling into the next user's ids: %s", async (_, fields) => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'merge', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id, 'member', fields());
    const cap = votesPerUser(user.id);
    expect(cap).toBe(user.id < 1e9 ? 2 ** 20 : 2 ** 14);
    expect((await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }])).status).toBe(200);
    await doc.send(
      new UpdateCommand({ TableName: TABLE, Key: ballotKeys.ballot(site.id, user.id), UpdateExpression: 'SET voteSeq = :s', ExpressionAttributeValues: { ':s': cap - 2 } }),
    );
    const last = await castVotes(site.id, user.token, [{ ideaId: ideas[1]! }]);
    expect(last.status).toBe(200);
    expect(last.body.find((v) => v.ideaId === ideas[1])!.id).toBe(voteIdOf(user.id, cap - 1));
    const refused = await castVotes(site.id, user.token, [{ ideaId: ideas[2]! }]);
    expect(refused.status).toBe(409);
    expect(Object.keys((await getBallot(site.id, user.id, true))!.votes)).toHaveLength(2);
    await expectTalliesMatchBallots(site.id);
  });

  it('a vote on a deleted idea is a 400; a round dropping a vote on it is still accepted', async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }, { ideaId: ideas[1]! }])).status).toBe(200);
    await deleteIdea(site.id, ideas[0]!);
    const onDeleted = await castVotes(site.id, user.token, [{ ideaId: ideas[0]! }]);
    expect(onDeleted.status).toBe(400);
    const replaced = await castVotes(site.id, user.token, [{ ideaId: ideas[2]! }]);
    expect(replaced.status).toBe(200);
    expect(Object.keys((await getBallot(site.id, user.id, true))!.votes)).toEqual([String(ideas[2])]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [ideas[2]!]: { yes: 1 } });
    // The deleted idea's page and the vote order no longer show it.
    expect((await ideaGet(site.id, ideas[0]!, { includeUserVote: '1' }, user.token)).status).toBe(404);
    const byVotes = await ideaList(site.id, { sort: 'votes_desc', includeVoteCount: '1' });
    expect(byVotes.body.records.map((r) => r.id)).not.toContain(ideas[0]);
  });
});

// ---------------------------------------------------------------------------------------------------


describe('work done for a round that is refused before its ideas matter', () => {
  // The site, the caller, the ballot and the stored answer (what deciding a refusal or a replay needs),
  // and the tallies read ahead: a bound (READ_AHEAD_IDEAS), whatever the number of ideas the body names.
  const REFUSAL_READS = 4 + READ_AHEAD_IDEAS;
  const round = Array.from({ length: 500 }, (_, i) => ({ ideaId: i + 1 }));

  it('voting closed (403): the 500 tally items of the round are not read', async () => {
    const site = await votingSite({ isActive: false });
    const member = await createUser(site.id);
    const { result, keys: read, consistent } = await keysRead(() => castVotes(site.id, member.token, round, { 'Idempotency-Key': 'k' }));
    expect(result.status).toBe(403);
    expect(read, `${read} keys read (${consistent} strongly consistent) to answer 403`).toBeLessThanOrEqual(REFUSAL_READS);
  });

  it("a Basic-Auth-closed site (401 before anything else): a token holder without the site's credentials makes it read none of the round's tallies", async () => {
    const site = await votingSite({}, { basicAuth: { active: true, user: 'u', password: 'p' } });
    const member = await createUser(site.id);
    const { result, keys: read, consistent } = await keysRead(() => castVotes(site.id, member.token, round));
    expect(result.status).toBe(401);
    expect(read, `${read} keys read (${consistent} strongly consistent) to answer 401`).toBeLessThanOrEqual(REFUSAL_READS);
  });
});

describe('vote ids next to the ids of votes cast from the retired global `vote` counter', () => {
  it("a new vote never takes the id of a legacy vote on the same site, even past the counter's first million", async () => {
    const site = await votingSite({ ...PUBLIC_VOTES, voteType: 'count', withExisting: 'merge', maxIdeas: 10 });
    const [idea] = await createIdeas(site.id, 1);
    // A deployment that cast 3,000,001 votes before this legacy ballot holds vote 3,000,001
    // (no `voteSeq`: written before it existed), counted in the idea's tally as the migration left it.
    const legacyVoter = await createUser(site.id);
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...ballotKeys.ballot(site.id, legacyVoter.id),
          siteId: site.id,
          userId: legacyVoter.id,
          votes: { [String(idea)]: { id: 3_000_001, opinion: 'yes', createdAt: '2025-01-01T00:00:00.000Z' } },
          version: 1,
          updatedAt: '2025-01-01T00:00:00.000Z',
        },
      }),
    );
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, idea!), UpdateExpression: 'ADD v_yes :one', ExpressionAttributeValues: { ':one': 1 } }));
    // User 3 (one of the deployment's first accounts) joins this site and votes for the first time.
    await putUserWithId(site.id, 3, 'member');
    const early = await castVotes(site.id, await issueToken({ userId: 3, siteId: site.id }), [{ ideaId: idea! }]);
    expect(early.status).toBe(200);
    const ids = (await allBallots(site.id)).flatMap((ballot) => Object.values(ballot.votes).map((vote) => vote.id));
    expect(ids.sort(), 'vote ids on the site').toEqual([...new Set(ids)].sort());
  });
});

describe('what the first read fetched is not what the answer may show', () => {
  it('an idea page on a site with hidden counts reads the tally ahead but shows no count, to anyone but who may see them', async () => {
    const site = await votingSite({ voteType: 'likes', isViewable: false });
    const [idea] = await createIdeas(site.id, 1);
    const member = await createUser(site.id);
    const admin = await createUser(site.id, 'admin');
    expect((await castVotes(site.id, member.token, [{ ideaId: idea! }])).status).toBe(200);
    for (const token of [member.token, undefined]) {
      const page = await ideaGet(site.id, idea!, { includeVoteCount: '1', includeUserVote: '1' }, token);
      expect(page.status).toBe(200);
      expect(page.body).not.toHaveProperty('yes');
      expect(page.body).not.toHaveProperty('no');
    }
    const seen = await ideaGet(site.id, idea!, { includeVoteCount: '1' }, admin.token);
    expect(seen.body.yes).toBe(1);
  });
});
