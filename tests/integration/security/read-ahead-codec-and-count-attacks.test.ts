/**
 * Attacks on what a vote round and a page read ahead (besides prefetch-attacks.test.ts): a read-ahead
 * of at most READ_AHEAD_IDEAS tallies, the ballot and stored answer read before the open/closed check,
 * the round's other ideas read after it, late votes on deleted ideas removed again, counterless vote
 * ids, a codec on every store read, routes declared once and the request's first read in apiHandler.
 *
 * Three attackers: another site's admin (a valid token of site A against site B), a moderator of the
 * site, and an anonymous browser (no token, forged cookies, other origins). What must hold: nothing of
 * B is read or changed with A's token; nobody acts above their role; no client-controlled value makes a
 * codec throw (a 5xx, or a read that fails forever after); the read-ahead never serves one request's
 * item to another; a vote is never counted twice nor kept on a deleted idea.
 */
import { onceBefore, tallySks } from '#tests/support/intercept';
import { READ_AHEAD_IDEAS } from '#lib/votes/cast';
import type { IdeaRecord } from '#schemas/idea';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, dynamo, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { verifySiteVotes } from '#lib/results/verify';
import { getBallot } from '#lib/store/ballots/ballots';
import { readIdeaTallies, readSiteTallies } from '#lib/store/ideas/tallies';
import { createUser, type TestUser } from '#tests/support/fixtures';
import { invoke, type InvokeOptions } from '#tests/support/invoke';
import { call } from '../../../scripts/lambda-call.ts';
import { castVotes, createIdeas, deleteIdea, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';
import { handler as getIdeaHandler } from '../../../functions/ideas/get.ts';
import { handler as listIdeasHandler } from '../../../functions/ideas/list.ts';
import { handler as createIdeaHandler } from '../../../functions/ideas/create.ts';
import { handler as resultsHandler } from '../../../functions/results/get.ts';
import { handler as voteHandler } from '../../../functions/votes/cast.ts';
import { handler as updateIdeaHandler } from '../../../functions/ideas/update.ts';
import { handler as deleteIdeaHandler } from '../../../functions/ideas/delete.ts';
import { handler as listUsersHandler } from '../../../functions/users/list.ts';
import { handler as getUserHandler } from '../../../functions/users/get.ts';
import { handler as updateUserHandler } from '../../../functions/users/update.ts';
import { handler as listVotesHandler } from '../../../functions/votes/list.ts';
import { handler as updateSiteHandler } from '../../../functions/sites/update.ts';
import { handler as exportVotesHandler } from '../../../functions/results/export-votes.ts';
import { handler as exportIdeasHandler } from '../../../functions/results/export-ideas.ts';

const IDEA = '/api/site/{siteId}/idea/{ideaId}';
const USER = '/api/site/{siteId}/user/{userId}';

const ideaGet = (siteId: number, ideaId: number, query: Record<string, string> = {}, token?: string) =>
  invoke<IdeaRecord>(getIdeaHandler, { path: IDEA, params: { siteId, ideaId }, query, ...(token ? { token } : {}) });
const userGet = (siteId: number, userId: number, token?: string) =>
  invoke<Record<string, unknown>>(getUserHandler, { path: USER, params: { siteId, userId }, ...(token ? { token } : {}) });
const userPut = (siteId: number, userId: number, body: unknown, token?: string) =>
  invoke<Record<string, unknown>>(updateUserHandler, { method: 'PUT', path: USER, params: { siteId, userId }, body, ...(token ? { token } : {}) });
const userList = (siteId: number, token?: string) =>
  invoke(listUsersHandler, { path: '/api/site/{siteId}/user', params: { siteId }, ...(token ? { token } : {}) });

// ---------------------------------------------------------------------------------------------------

describe("(1) site A's admin against site B", () => {
  let siteB: { id: number };
  let adminA: TestUser;
  let memberB: TestUser;
  let ideasB: number[];
  beforeAll(async () => {
    const siteA = await votingSite({ voteType: 'likes' });
    siteB = await votingSite({ voteType: 'likes', isViewable: true });
    adminA = await createUser(siteA.id, 'admin');
    memberB = await createUser(siteB.id);
    ideasB = await createIdeas(siteB.id, 3);
    expect((await castVotes(siteB.id, memberB.token, [{ ideaId: ideasB[0]! }])).status).toBe(200);
  });

  it("changes nothing of B: idea update/delete, user update, vote, site update are all refused (401)", async () => {
    const before = await ideaGet(siteB.id, ideasB[0]!, { includeVoteCount: '1' });
    const answers = [
      await invoke(updateIdeaHandler, { method: 'PUT', path: IDEA, params: { siteId: siteB.id, ideaId: ideasB[0]! }, body: { title: 'Taken over by A' }, token: adminA.token }),
      await invoke(deleteIdeaHandler, { method: 'DELETE', path: IDEA, params: { siteId: siteB.id, ideaId: ideasB[1]! }, token: adminA.token }),
      await userPut(siteB.id, memberB.id, { role: 'admin', nickName: 'pwned' }, adminA.token),
      await castVotes(siteB.id, adminA.token, [{ ideaId: ideasB[0]! }], { 'Idempotency-Key': 'a-on-b' }),
      await invoke(updateSiteHandler, { method: 'PUT', path: '/api/site/{siteId}', params: { siteId: siteB.id }, body: { config: { votes: { isActive: false } } }, token: adminA.token }),
    ];
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(await ideaGet(siteB.id, ideasB[0]!, { includeVoteCount: '1' })).toMatchObject({ status: 200, body: before.body });
    expect((await ideaGet(siteB.id, ideasB[1]!)).status).toBe(200);
    expect((await userGet(siteB.id, memberB.id, memberB.token)).body).toMatchObject({ role: 'member' });
    await expectTalliesMatchBallots(siteB.id);
  });

  it("reads nothing private of B: user list, user details, vote list with userId, exports (401)", async () => {
    const answers = [
      await userList(siteB.id, adminA.token),
      await userGet(siteB.id, memberB.id, adminA.token),
      await invoke(listVotesHandler, { path: '/api/site/{siteId}/vote', params: { siteId: siteB.id }, query: { userId: String(memberB.id) }, token: adminA.token }),
      await invoke(exportVotesHandler, { path: '/api/site/{siteId}/export/votes', params: { siteId: siteB.id }, token: adminA.token }),
      await invoke(exportIdeasHandler, { path: '/api/site/{siteId}/export/ideas', params: { siteId: siteB.id }, query: { format: 'csv' }, token: adminA.token }),
    ];
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain(`user${memberB.id}@example.org`);
    }
  });
});

describe('(2) a moderator of the site', () => {
  let site: { id: number };
  let moderator: TestUser;
  let member: TestUser;
  beforeAll(async () => {
    site = await votingSite({ voteType: 'likes' });
    moderator = await createUser(site.id, 'moderator');
    member = await createUser(site.id);
  });

  it("may not change the site, export it, nor give anyone (itself included) a role above its own", async () => {
    const answers = [
      await invoke(updateSiteHandler, { method: 'PUT', path: '/api/site/{siteId}', params: { siteId: site.id }, body: { config: { votes: { isActive: false } } }, token: moderator.token }),
      await invoke(exportVotesHandler, { path: '/api/site/{siteId}/export/votes', params: { siteId: site.id }, token: moderator.token }),
      await userPut(site.id, moderator.id, { role: 'admin' }, moderator.token),
      await userPut(site.id, member.id, { role: 'admin' }, moderator.token),
    ];
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect((await userGet(site.id, moderator.id, moderator.token)).body).toMatchObject({ role: 'moderator' });
    expect((await userGet(site.id, member.id, member.token)).body).toMatchObject({ role: 'member' });
  });

  it("casts votes as itself only: a round names no user, so the member's ballot is untouched", async () => {
    const [idea] = await createIdeas(site.id, 1);
    expect((await castVotes(site.id, member.token, [{ ideaId: idea! }])).status).toBe(200);
    const before = await getBallot(site.id, member.id, true);
    const res = await castVotes(site.id, moderator.token, [{ ideaId: idea!, userId: member.id }]);
    expect(res.status).toBeLessThan(500);
    expect(await getBallot(site.id, member.id, true)).toEqual(before);
    await expectTalliesMatchBallots(site.id);
  });
});

describe('(3) an anonymous browser', () => {
  let site: { id: number };
  let ideas: number[];
  let member: TestUser;
  beforeAll(async () => {
    site = await votingSite({ voteType: 'likes' }, { allowedDomains: ['good.example'] });
    ideas = await createIdeas(site.id, 2);
    member = await createUser(site.id);
  });

  const anonymousTries: Array<[string, (member: TestUser) => InvokeOptions]> = [
    ['no token', () => ({})],
    ['a forged session cookie', () => ({ cookies: [`token=${'x'.repeat(40)}`, 'userId=1'] })],
    ["a member's real token in cookies (only the header carries a token)", (m) => ({ cookies: [`token=${m.token}`, `access_token=${m.token}`] })],
    ['a Bearer of garbage', () => ({ headers: { 'X-Authorization': 'Bearer not.a.jwt' } })],
  ];
  it.each(anonymousTries)('a vote round with %s is a 401 and writes nothing', async (_label, extra) => {
    const res = await invoke(voteHandler, { method: 'POST', path: '/api/site/{siteId}/vote', params: { siteId: site.id }, body: [{ ideaId: ideas[0]! }], ...extra(member) });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(await getBallot(site.id, member.id, true)).toBeUndefined();
    expect((await readIdeaTallies(site.id, [ideas[0]!], { consistent: true })).get(ideas[0]!)?.tally).toEqual({});
  });

  it("the public vote list of a viewable site never shows or filters by who voted (anonymous, forged cookie, or a member)", async () => {
    const viewable = await votingSite({ voteType: 'likes', isViewable: true });
    const [idea] = await createIdeas(viewable.id, 1);
    const voter = await createUser(viewable.id);
    const other = await createUser(viewable.id);
    expect((await castVotes(viewable.id, voter.token, [{ ideaId: idea! }])).status).toBe(200);
    const queries: Array<Record<string, string>> = [{}, { userId: String(voter.id) }, { userId: String(other.id) }];
    for (const who of [{}, { cookies: [`token=${voter.token}`] }, { token: other.token }]) {
      const answers = await Promise.all(queries.map((query) => call(listVotesHandler, { path: '/api/site/{siteId}/vote', params: { siteId: viewable.id }, query, ...who })));
      for (const res of answers) {
        expect(res.status, res.text).toBeLessThan(500);
        if (res.status === 200) expect(res.text).not.toContain('userId');
      }
      // A filter by user that is honoured would tell who voted for what even with the field hidden.
      const [, byVoter, byOther] = answers;
      if (byVoter!.status === 200 && byOther!.status === 200) expect(byVoter!.text).toBe(byOther!.text);
    }
  });

  it("a write from another origin gets no CORS grant (neither its origin echoed nor `*`); the site's own origin does", async () => {
    const post = (origin: string) =>
      castVotes(site.id, member.token, [{ ideaId: ideas[1]! }], { origin });
    const evil = await post('https://evil.example');
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const lookalike = await post('https://good.example.evil.example');
    expect(lookalike.headers['access-control-allow-origin']).toBeUndefined();
    const good = await post('https://good.example');
    expect(good.headers['access-control-allow-origin']).toBe('https://good.example');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('codecs against client-controlled values: never a 5xx, now or on a later read', () => {
  it.each([
    ['an own __proto__ key', '{"extraData": {"__proto__": {"role": "admin"}}}'],
    ['a field named like a counter', '{"extraData": {"v_yes": 5, "tallyOf": 1, "gone": true}}'],
    ['huge and odd numbers', '{"extraData": {"big": 1e308, "tiny": 5e-324, "negZero": -0, "unsafe": 9007199254740993}}'],
    ['nested odd values', '{"extraData": {"deep": {"a": [null, true, {"b": ""}], "__proto__": {"x": 1}}, "empty": "", "list": []}}'],
    ['record field names', '{"extraData": {"id": 1, "siteId": 2, "role": "admin", "createdAt": 3}}'],
    ['a 50 KB string', JSON.stringify({ extraData: { blob: 'x'.repeat(50_000) } })],
  ])("a member's extraData with %s: the PUT is a 2xx or 4xx; the user, the admin's list and the role stay readable", async (_label, rawBody) => {
    const site = await votingSite();
    const member = await createUser(site.id);
    const admin = await createUser(site.id, 'admin');
    const put = await userPut(site.id, member.id, JSON.parse(rawBody) as unknown, member.token);
    expect(put.status, JSON.stringify(put.body).slice(0, 300)).toBeLessThan(500);
    for (const res of [await userGet(site.id, member.id, member.token), await userGet(site.id, member.id, admin.token), await userList(site.id, admin.token)]) {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    }
    expect((await userGet(site.id, member.id, admin.token)).body).toMatchObject({ id: member.id, role: 'member' });
    // The member can still vote (its user item is read by every request's first read).
    const [idea] = await createIdeas(site.id, 1);
    expect((await castVotes(site.id, member.token, [{ ideaId: idea! }])).status).toBe(200);
  });

  it.each(['constructor', 'toString', 'v_yes', 'v_', 'yes#TALLY', 'hasOwnProperty'])(
    'an opinion named %s (a site value) is counted exactly, as the ballots hold it',
    async (opinion) => {
      // `voteValues` is the site admin's, any string of 1..64: the counter is `v_<opinion>` on the tally item.
      const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 5, voteValues: [{ value: opinion }, { value: 'yes' }] });
      const ideas = await createIdeas(site.id, 2);
      const voters = await Promise.all([createUser(site.id), createUser(site.id)]);
      for (const voter of voters) {
        const res = await castVotes(site.id, voter.token, [{ ideaId: ideas[0]!, opinion }, { ideaId: ideas[1]!, opinion: 'yes' }]);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      // Every reader of tally items sees the same two votes the ballots hold.
      const read = (await readIdeaTallies(site.id, [ideas[0]!], { consistent: true })).get(ideas[0]!)!;
      expect(Object.getOwnPropertyDescriptor(read.tally, opinion)?.value).toBe(2);
      expect(Object.getOwnPropertyDescriptor((await readSiteTallies(site.id, { consistent: true })).get(ideas[0]!), opinion)?.value).toBe(2);
      await expectTalliesMatchBallots(site.id);
      // The reads of the idea and its lists stay answerable.
      expect((await ideaGet(site.id, ideas[0]!, { includeVoteCount: '1', includeUserVote: '1' }, voters[0]!.token)).status).toBe(200);
    },
  );
  it.each([
    ['an own __proto__ in extraData', '{"extraData": {"__proto__": {"theme": "x"}, "theme": "green"}}'],
    ['a theme that is not a string', '{"extraData": {"theme": {"value": 1}}}'],
    ['a huge theme number and budget', '{"extraData": {"theme": 1e308}, "budget": 1e308}'],
    ['tally fields at the top level', '{"tallyOf": 1, "gone": true, "v_yes": 5, "GSI3PK": "VOTES#1", "deletingAt": "now"}'],
    ['tally fields in extraData', '{"extraData": {"tallyOf": 1, "gone": true, "v_yes": 5}}'],
    ['minus zero and a tiny budget', '{"budget": -0, "extraData": {"n": 5e-324}}'],
  ])("a member's idea with %s: created or refused (never 5xx); the site's lists, page, export, results and a vote on it stay answerable", async (_label, rawExtra) => {
    const site = await votingSite({ voteType: 'likes', isViewable: true }, { ideas: { canAddNewIdeas: true } });
    const member = await createUser(site.id);
    const admin = await createUser(site.id, 'admin');
    const body = {
      title: 'A good idea with odd values',
      summary: 'A summary of an idea that is long enough',
      description: 'A description of an idea. '.padEnd(160, 'x'),
      ...(JSON.parse(rawExtra) as Record<string, unknown>),
    };
    const created = await invoke<IdeaRecord>(createIdeaHandler, { method: 'POST', path: '/api/site/{siteId}/idea', params: { siteId: site.id }, body, token: member.token });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBeLessThan(500);
    const [plain] = await createIdeas(site.id, 1);
    const ideaIds = created.status === 201 ? [created.body.id, plain!] : [plain!];
    for (const ideaId of ideaIds) expect((await castVotes(site.id, member.token, [{ ideaId }])).status).toBe(200);
    const reads = await Promise.all([
      call(listIdeasHandler, { path: '/api/site/{siteId}/idea', params: { siteId: site.id }, query: { includeVoteCount: '1', includeUserVote: '1' }, token: member.token }),
      call(listIdeasHandler, { path: '/api/site/{siteId}/idea', params: { siteId: site.id }, query: { sort: 'votes_desc', includeVoteCount: '1' } }),
      ...ideaIds.map((ideaId) => call(getIdeaHandler, { path: IDEA, params: { siteId: site.id, ideaId }, query: { includeVoteCount: '1', includeUserVote: '1' }, token: member.token })),
      call(exportIdeasHandler, { path: '/api/site/{siteId}/export/ideas', params: { siteId: site.id }, query: { format: 'csv' }, token: admin.token }),
      call(resultsHandler, { path: '/api/site/{siteId}/results', params: { siteId: site.id }, token: admin.token }),
    ]);
    for (const res of reads) expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(await expectTalliesMatchBallots(site.id)).toEqual(Object.fromEntries(ideaIds.map((id) => [id, { yes: 1 }])));
  });

  // BUG (fails): lib/store/ideas/tallies.ts tallyOfItem builds the tally in a plain `{}` and assigns
  // `tally[name.slice(2)] = value`; for the counter `v___proto__` that assignment sets the object's
  // prototype (a number: ignored), so every reader of tally items (idea pages, lists, the CSV export,
  // the order by votes, scripts/verify-votes.ts) sees no `__proto__` votes while the ballots and the
  // stored counter hold them. lib/votes/tally.ts already counts into null-prototype objects for this
  // reason; the store side does not. Repro: site votes {voteType: count, voteValues: [{value:
  // '__proto__'}, {value: 'yes'}]}, two members POST /vote [{ideaId, opinion: '__proto__'}]: the tally
  // item holds v___proto__ = 2, readIdeaTallies/readSiteTallies give {}, and verifySiteVotes reports
  // "tallies disagree with the ballots" on a site whose counts are exact.
  it("an opinion named __proto__ (a site value) is counted as the ballots hold it, and the audit agrees", async () => {
    const opinion = '__proto__';
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 5, voteValues: [{ value: opinion }, { value: 'yes' }] });
    const [idea] = await createIdeas(site.id, 1);
    for (const voter of await Promise.all([createUser(site.id), createUser(site.id)])) {
      expect((await castVotes(site.id, voter.token, [{ ideaId: idea!, opinion }])).status).toBe(200);
    }
    const stored = await doc.send(new GetCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, idea!), ConsistentRead: true }));
    expect(stored.Item?.['v___proto__']).toBe(2);
    expect((await verifySiteVotes(site.id)).problems).toEqual([]);
    const read = (await readIdeaTallies(site.id, [idea!], { consistent: true })).get(idea!)!;
    expect(Object.getOwnPropertyDescriptor(read.tally, opinion)?.value).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('the read-ahead of the first READ_AHEAD_IDEAS tallies', () => {
  let site: { id: number };
  let ideas: number[];
  beforeAll(async () => {
    // Room for rounds past the read-ahead (it fills the first BatchGet: 96 of its 100 keys).
    site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: READ_AHEAD_IDEAS + 20 });
    ideas = await createIdeas(site.id, READ_AHEAD_IDEAS + 20);
  });

  it("a round whose ideas past the read-ahead exist only on another site is a 400 and moves no tally there", async () => {
    const other = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: READ_AHEAD_IDEAS + 20 });
    const foreign = (await createIdeas(other.id, 10)).filter((id) => !ideas.includes(id));
    const voter = await createUser(site.id);
    const round = [...ideas.slice(0, READ_AHEAD_IDEAS), ...foreign.slice(0, 3)].map((ideaId) => ({ ideaId }));
    const res = await castVotes(site.id, voter.token, round);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await getBallot(site.id, voter.id, true)).toBeUndefined();
    expect(await expectTalliesMatchBallots(other.id)).toEqual({});
    await expectTalliesMatchBallots(site.id);
  });

  it('a round whose idea past the read-ahead was deleted is a 400, nothing stored', async () => {
    const own = await createIdeas(site.id, READ_AHEAD_IDEAS + 3);
    await deleteIdea(site.id, own[READ_AHEAD_IDEAS + 1]!);
    const voter = await createUser(site.id);
    const res = await castVotes(site.id, voter.token, own.map((ideaId) => ({ ideaId })));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await getBallot(site.id, voter.id, true)).toBeUndefined();
    await expectTalliesMatchBallots(site.id);
  });

  it("parallel rounds of different sizes (under, at and past the read-ahead) each store exactly their own ideas", async () => {
    const sizes = [1, READ_AHEAD_IDEAS, READ_AHEAD_IDEAS + 1, READ_AHEAD_IDEAS + 10, 7, READ_AHEAD_IDEAS + 5];
    const voters = await Promise.all(sizes.map(() => createUser(site.id)));
    // Each voter's round starts at a different idea: a tally served to the wrong request would show.
    const rounds = sizes.map((size, i) => ideas.slice(i, i + size).reverse());
    const answers = await Promise.all(voters.map((voter, i) => castVotes(site.id, voter.token, rounds[i]!.map((ideaId) => ({ ideaId })))));
    for (const [i, res] of answers.entries()) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.map((v) => v.ideaId).sort((a, b) => a - b)).toEqual([...rounds[i]!].sort((a, b) => a - b));
      expect(res.body.every((v) => v.userId === voters[i]!.id)).toBe(true);
      const ballot = await getBallot(site.id, voters[i]!.id, true);
      expect(Object.keys(ballot?.votes ?? {}).map(Number).sort((a, b) => a - b)).toEqual([...rounds[i]!].sort((a, b) => a - b));
    }
    await expectTalliesMatchBallots(site.id);
  });
});

describe('a vote counted twice, or on a deleted idea', () => {
  it('six parallel copies of a likes round with ONE Idempotency-Key: one vote, counted once, every answer the same', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const voter = await createUser(site.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => castVotes(site.id, voter.token, [{ ideaId: idea! }], { 'Idempotency-Key': 'same-click' })));
    for (const res of answers) {
      expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 200) expect(res.body.map((v) => v.ideaId)).toEqual([idea]);
    }
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [idea!]: { yes: 1 } });
  });

  it('parallel merge rounds of one user on the same idea with different keys: held once, counted once, one id', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'merge', maxIdeas: 10 });
    const [idea, other] = await createIdeas(site.id, 2);
    const voter = await createUser(site.id);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => castVotes(site.id, voter.token, [{ ideaId: idea! }, ...(i % 2 ? [{ ideaId: other! }] : [])], { 'Idempotency-Key': `k-${i}` })));
    for (const res of answers) expect([200, 409, 400], JSON.stringify(res.body)).toContain(res.status);
    const counted = await expectTalliesMatchBallots(site.id);
    expect(counted[idea!]).toEqual({ yes: 1 });
    const ballot = await getBallot(site.id, voter.id, true);
    const ids = Object.values(ballot?.votes ?? {}).map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a vote on an idea deleted after it was cast: gone from the ballot, the page and the count; a re-vote is a 400", async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea, kept] = await createIdeas(site.id, 2);
    const voter = await createUser(site.id);
    expect((await castVotes(site.id, voter.token, [{ ideaId: idea! }, { ideaId: kept! }])).status).toBe(200);
    await deleteIdea(site.id, idea!);
    expect(Object.keys((await getBallot(site.id, voter.id, true))?.votes ?? {})).toEqual([String(kept)]);
    expect((await ideaGet(site.id, idea!, { includeUserVote: '1', includeVoteCount: '1' }, voter.token)).status).toBe(404);
    expect((await castVotes(site.id, voter.token, [{ ideaId: idea! }])).status).toBe(400);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [kept!]: { yes: 1 } });
  });
});

// ---------------------------------------------------------------------------------------------------

const INTERCEPT = 'testFinalAttackIntercept';

describe("a large round's late vote on an idea deleted while it committed", () => {
  // BUG (fails): the journal's unconditional ADD (lib/store/ballots/journal.ts) re-creates the deleted
  // idea's tally key as an item with only `v_yes` (no `tallyOf`, no `deletingAt`, no `status`), until
  // removeLateVote deletes it. The idea list (lib/store/content/content-items.ts) keeps every IDEA# item that is
  // not `deleting` when no status filter is given, asIdeaTally does not see a tally in it (no tallyOf),
  // so it is read as an idea and its codec throws: GET /idea answers 500 for everyone on the site for
  // as long as the item exists (and for good if the round's Lambda stops before removeLateVote).
  // Repro: likes site, 100 ideas; a member POSTs /vote with all 100; one idea whose change rides in the
  // journal is deleted (DELETE /idea) between the round's read and its first transaction; a GET /idea
  // of the site sent after the journal's step and before removeLateVote's Delete gets a 500.
  it('the site\'s idea list answers (never 5xx) while the stray count item exists, and the vote ends removed', async () => {
    const site = await votingSite({});
    const ideas = await createIdeas(site.id, 100);
    const user = await createUser(site.id);
    const ballotSk = ballotKeys.ballot(site.id, user.id).SK;
    let victimSk: string | undefined;
    let victim: number | undefined;
    onceBefore(
      (sent) => sent.commandName === 'TransactWriteItemsCommand' && JSON.stringify(sent.input).includes(ballotSk) && tallySks(sent.input).length > 0,
      async (sent) => {
        const inFirst = new Set(tallySks(sent.input));
        victim = ideas.find((id) => !inFirst.has(ideaKeys.ideaTally(site.id, id).SK));
        if (victim === undefined) return;
        victimSk = ideaKeys.ideaTally(site.id, victim).SK;
        await deleteIdea(site.id, victim);
        // The second interception: just before removeLateVote deletes the stray count item.
        onceBeforeDelete();
      },
    );
    let listed: { status: number; text: string } | undefined;
    const onceBeforeDelete = () => {
      let done = false;
      dynamo.middlewareStack.add(
        (next, context) => async (args) => {
          const name = String((context as { commandName?: string }).commandName);
          // The document client's DeleteCommand reaches the low-level client as DeleteItem.
          if (!done && name.startsWith('DeleteItem') && victimSk !== undefined && JSON.stringify((args as { input?: unknown }).input).includes(victimSk)) {
            done = true;
            const res = await invoke(listIdeasHandler, { path: '/api/site/{siteId}/idea', params: { siteId: site.id } });
            const stray = await doc.send(new GetCommand({ TableName: TABLE, Key: { PK: ideaKeys.ideaTally(site.id, victim!).PK, SK: victimSk }, ConsistentRead: true }));
            listed = { status: res.status, text: `${JSON.stringify(res.body).slice(0, 200)}; the stray item: ${JSON.stringify(stray.Item)}` };
          }
          return next(args);
        },
        { step: 'initialize', name: `${INTERCEPT}Delete`, priority: 'high' },
      );
    };
    try {
      const res = await castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId })));
      expect([200, 400]).toContain(res.status);
    } finally {
      dynamo.middlewareStack.remove(`${INTERCEPT}Delete`);
    }
    expect(victim, 'every change of the round fit the first transaction').toBeDefined();
    expect(listed, 'removeLateVote never deleted the stray item').toBeDefined();
    expect(Object.keys((await getBallot(site.id, user.id, true))?.votes ?? {})).not.toContain(String(victim));
    await expectTalliesMatchBallots(site.id);
    expect(listed!.status, listed!.text).toBe(200);
  });
});
