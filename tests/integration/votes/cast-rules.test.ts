/**
 * POST /api/site/:siteId/vote through the handler: every rule and every error of a round, with the
 * stored tallies checked against the ballots after each accepted or rejected round.
 */
import { describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { castVotes, createIdea, createIdeas, expectTalliesMatchBallots, storedTallies, votingSite } from '#tests/support/vote-fixtures';
import { getBallot } from '#lib/store/ballots/ballots';
import { errorOf } from '#tests/support/bodies';

const ideasOf = (body: Array<{ ideaId: number; opinion: string }>) => body.map((v) => [v.ideaId, v.opinion]);

describe('vote records', () => {
  it('answers 200 with the caller\'s current votes as records', async () => {
    const site = await votingSite();
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: b, opinion: 'no' }, { ideaId: a }]);
    expect(res.status).toBe(200);
    // Each record carries the round's receipt: the mac of the vote log entry it wrote.
    const receipt = expect.stringMatching(/^[0-9a-f]{64}$/);
    expect(res.body).toEqual([
      { id: expect.any(Number), ideaId: a, userId: user.id, opinion: 'yes', createdAt: expect.any(String), receipt },
      { id: expect.any(Number), ideaId: b, userId: user.id, opinion: 'no', createdAt: expect.any(String), receipt },
    ]);
    expect(res.body[0]!.receipt).toBe(res.body[1]!.receipt);
    expect(res.body[0]!.id).not.toBe(res.body[1]!.id);
    expect(new Date(res.body[0]!.createdAt).toISOString()).toBe(res.body[0]!.createdAt);
    // A single object is a round of one.
    const other = await createUser(site.id);
    const single = await castVotes(site.id, other.token, { ideaId: a, opinion: 'yes' });
    expect(single.status).toBe(200);
    expect(ideasOf(single.body)).toEqual([[a, 'yes']]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [a]: { yes: 2 }, [b]: { no: 1 } });
  });
});

describe('likes', () => {
  it('toggles: the same opinion again cancels, the other opinion switches', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);

    const first = await castVotes(site.id, user.token, [{ ideaId: a, opinion: 'yes' }]);
    expect(ideasOf(first.body)).toEqual([[a, 'yes']]);
    expect(await storedTallies(site.id)).toEqual({ [a]: { yes: 1 } });

    const switched = await castVotes(site.id, user.token, [{ ideaId: a, opinion: 'no' }, { ideaId: b, opinion: 'yes' }]);
    expect(ideasOf(switched.body)).toEqual([[a, 'no'], [b, 'yes']]);
    expect(switched.body[0]!.id).not.toBe(first.body[0]!.id);
    expect(await storedTallies(site.id)).toEqual({ [a]: { no: 1 }, [b]: { yes: 1 } });

    const cancelled = await castVotes(site.id, user.token, [{ ideaId: a, opinion: 'no' }]);
    expect(ideasOf(cancelled.body)).toEqual([[b, 'yes']]);
    expect(await storedTallies(site.id)).toEqual({ [b]: { yes: 1 } });

    const empty = await castVotes(site.id, user.token, [{ ideaId: b, opinion: 'yes' }]);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({});
  });

  it('ignores withExisting and the idea limits', async () => {
    const site = await votingSite({ voteType: 'likes', withExisting: 'error', maxIdeas: 1 });
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }, { ideaId: b }])).status).toBe(200);
    expect((await castVotes(site.id, user.token, [{ ideaId: a, opinion: 'no' }])).status).toBe(200);
    await expectTalliesMatchBallots(site.id);
  });

  it('refuses an opinion outside the vote values with the entry path', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: idea.id, opinion: 'maybe' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path: '[0].opinion' }] });
  });
});

describe('count', () => {
  it('withExisting error: a second round is a 409 and changes nothing', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'error', minIdeas: 1, maxIdeas: 3 });
    const [a, b, c] = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }, { ideaId: b }])).status).toBe(200);
    const again = await castVotes(site.id, user.token, [{ ideaId: c }]);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 409, error: 'Conflict' });
    expect(Object.keys((await getBallot(site.id, user.id))!.votes).map(Number).sort((x, y) => x - y)).toEqual([a, b].sort((x, y) => x - y));
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [a]: { yes: 1 }, [b]: { yes: 1 } });
  });

  it('withExisting replace: the round becomes the ballot; re-voted ideas keep their vote', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 3 });
    const [a, b, c] = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    const first = await castVotes(site.id, user.token, [{ ideaId: a }, { ideaId: b }]);
    const second = await castVotes(site.id, user.token, [{ ideaId: b }, { ideaId: c }]);
    expect(second.status).toBe(200);
    expect(ideasOf(second.body)).toEqual([[b, 'yes'], [c, 'yes']]);
    // The kept vote is the same vote; the receipt is the new round's.
    expect({ ...second.body[0], receipt: undefined }).toEqual({ ...first.body[1], receipt: undefined });
    expect(second.body[0]!.receipt).not.toBe(first.body[1]!.receipt);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [b]: { yes: 1 }, [c]: { yes: 1 } });
  });

  it('withExisting merge: adds ideas, 409 on overlap, limits apply to the combined set', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'merge', maxIdeas: 3 });
    const [a, b, c, d] = await createIdeas(site.id, 4);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }])).status).toBe(200);
    const merged = await castVotes(site.id, user.token, [{ ideaId: b }, { ideaId: c }]);
    expect(ideasOf(merged.body)).toEqual([[a, 'yes'], [b, 'yes'], [c, 'yes']]);

    const overlap = await castVotes(site.id, user.token, [{ ideaId: a }]);
    expect(overlap.status).toBe(409);
    const tooMany = await castVotes(site.id, user.token, [{ ideaId: d }]);
    expect(tooMany.status).toBe(400);
    expect(errorOf(tooMany.body).error).toBe('ValidationError');
    expect(errorOf(tooMany.body).message).toMatch(/Number of ideas 4 is above the maximum of 3/);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [a]: { yes: 1 }, [b]: { yes: 1 }, [c]: { yes: 1 } });
  });

  it('minIdeas and maxIdeas bound a round', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', minIdeas: 2, maxIdeas: 3 });
    const ids = await createIdeas(site.id, 4);
    const user = await createUser(site.id);
    const few = await castVotes(site.id, user.token, [{ ideaId: ids[0] }]);
    expect(few.status).toBe(400);
    expect(errorOf(few.body).message).toMatch(/below the minimum of 2/);
    const many = await castVotes(site.id, user.token, ids.map((ideaId) => ({ ideaId })));
    expect(many.status).toBe(400);
    expect(errorOf(many.body).message).toMatch(/above the maximum of 3/);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({});
    expect(await getBallot(site.id, user.id)).toBeUndefined();
  });
});

describe('budgeting', () => {
  it('the chosen ideas\' budgets must lie within minBudget..maxBudget', async () => {
    const site = await votingSite({ voteType: 'budgeting', withExisting: 'replace', minBudget: 100, maxBudget: 500 });
    const small = await createIdea(site.id, { budget: 50 });
    const mid = await createIdea(site.id, { budget: 300 });
    const big = await createIdea(site.id, { budget: 400 });
    const user = await createUser(site.id);

    const under = await castVotes(site.id, user.token, [{ ideaId: small.id }]);
    expect(under.status).toBe(400);
    expect(errorOf(under.body).message).toMatch(/Budget 50 is below the minimum of 100/);
    const over = await castVotes(site.id, user.token, [{ ideaId: mid.id }, { ideaId: big.id }]);
    expect(over.status).toBe(400);
    expect(errorOf(over.body).message).toMatch(/Budget 700 is above the maximum of 500/);
    const fits = await castVotes(site.id, user.token, [{ ideaId: small.id }, { ideaId: big.id }]);
    expect(fits.status).toBe(200);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [small.id]: { yes: 1 }, [big.id]: { yes: 1 } });
  });

  it('merge checks the budget of the held votes plus the round (the held ideas are read too)', async () => {
    const site = await votingSite({ voteType: 'budgeting', withExisting: 'merge', maxBudget: 500 });
    const a = await createIdea(site.id, { budget: 300 });
    const b = await createIdea(site.id, { budget: 300 });
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: a.id }])).status).toBe(200);
    const res = await castVotes(site.id, user.token, [{ ideaId: b.id }]);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toMatch(/Budget 600 is above the maximum of 500/);
  });
});

describe('per theme', () => {
  const themes = [
    { value: 'green', maxIdeas: 1, maxBudget: 300 },
    { value: 'roads', minIdeas: 2 },
  ];

  it('count-per-theme: each theme\'s limits, ideas outside the themes refused', async () => {
    const site = await votingSite({ voteType: 'count-per-theme', withExisting: 'replace', themes });
    const [g1, g2] = await createIdeas(site.id, 2, { theme: 'green' });
    const [r1, r2] = await createIdeas(site.id, 2, { theme: 'roads' });
    const other = await createIdea(site.id, { theme: 'parks' });
    const none = await createIdea(site.id);
    const user = await createUser(site.id);

    const twoGreen = await castVotes(site.id, user.token, [{ ideaId: g1 }, { ideaId: g2 }]);
    expect(twoGreen.status).toBe(400);
    expect(errorOf(twoGreen.body).message).toMatch(/Theme "green": number of ideas 2 is above the maximum of 1/);
    const oneRoad = await castVotes(site.id, user.token, [{ ideaId: g1 }, { ideaId: r1 }]);
    expect(oneRoad.status).toBe(400);
    expect(errorOf(oneRoad.body).message).toMatch(/Theme "roads": number of ideas 1 is below the minimum of 2/);
    const outside = await castVotes(site.id, user.token, [{ ideaId: other.id }, { ideaId: none.id }]);
    expect(outside.status).toBe(400);
    expect(errorOf(outside.body).details!.map((d: { path: string }) => d.path)).toEqual(['[0].ideaId', '[1].ideaId']);

    const ok = await castVotes(site.id, user.token, [{ ideaId: g1 }, { ideaId: r1 }, { ideaId: r2 }]);
    expect(ok.status).toBe(200);
    await expectTalliesMatchBallots(site.id);
  });

  it('budgeting-per-theme: each theme\'s budget', async () => {
    const site = await votingSite({ voteType: 'budgeting-per-theme', withExisting: 'replace', themes });
    const g = await createIdea(site.id, { theme: 'green', budget: 400 });
    const gCheap = await createIdea(site.id, { theme: 'green', budget: 200 });
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: g.id }]);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toMatch(/Theme "green": budget 400 is above the maximum of 300/);
    expect((await castVotes(site.id, user.token, [{ ideaId: gCheap.id }])).status).toBe(200);
  });
});

describe('when voting is closed', () => {
  it('isActive false: 403', async () => {
    const site = await createSite({ votes: { isActive: false } });
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: idea.id }]);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, error: 'Forbidden' });
  });

  it('isActive null: the dates decide; a missing window is closed', async () => {
    const day = 24 * 3600 * 1000;
    const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ isActive: null, isActiveFrom: iso(-day), isActiveTo: iso(day) }, 200],
      [{ isActive: null, isActiveFrom: iso(day), isActiveTo: iso(2 * day) }, 403],
      [{ isActive: null, isActiveFrom: iso(-2 * day), isActiveTo: iso(-day) }, 403],
      [{ isActive: null }, 403],
      [{}, 403],
    ];
    for (const [votes, status] of cases) {
      const site = await createSite({ votes });
      const idea = await createIdea(site.id);
      const user = await createUser(site.id);
      expect((await castVotes(site.id, user.token, [{ ideaId: idea.id }])).status, JSON.stringify(votes)).toBe(status);
    }
  });
});

describe('who may vote', () => {
  it('no token: 401; requiredUserRole member refuses anonymous (403) and takes member and above', async () => {
    const site = await votingSite({ requiredUserRole: 'member' });
    const idea = await createIdea(site.id);
    expect((await castVotes(site.id, undefined, [{ ideaId: idea.id }])).status).toBe(401);
    const anon = await createUser(site.id, 'anonymous');
    const refused = await castVotes(site.id, anon.token, [{ ideaId: idea.id }]);
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body).error).toBe('Forbidden');
    for (const role of ['member', 'moderator', 'admin'] as const) {
      const user = await createUser(site.id, role);
      expect((await castVotes(site.id, user.token, [{ ideaId: idea.id }])).status, role).toBe(200);
    }
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [idea.id]: { yes: 3 } });
  });

  it('requiredUserRole anonymous lets anonymous users vote, still not callers without a token', async () => {
    const site = await votingSite({ requiredUserRole: 'anonymous' });
    const idea = await createIdea(site.id);
    const anon = await createUser(site.id, 'anonymous');
    expect((await castVotes(site.id, anon.token, [{ ideaId: idea.id }])).status).toBe(200);
    expect((await castVotes(site.id, undefined, [{ ideaId: idea.id }])).status).toBe(401);
  });

  it('a service token has no user to vote as: 403', async () => {
    const site = await votingSite();
    const idea = await createIdea(site.id);
    expect((await castVotes(site.id, SERVICE_TOKEN, [{ ideaId: idea.id }])).status).toBe(403);
  });

  it('a token of another site: 401', async () => {
    const site = await votingSite();
    const other = await votingSite();
    const idea = await createIdea(site.id);
    const stranger = await createUser(other.id);
    expect((await castVotes(site.id, stranger.token, [{ ideaId: idea.id }])).status).toBe(401);
  });
});

describe('bad rounds', () => {
  it('an unknown idea, or one of another site: 400 with [i].ideaId, nothing stored', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace' });
    const other = await votingSite();
    const idea = await createIdea(site.id);
    const foreign = await createIdea(other.id);
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: idea.id }, { ideaId: 999_999_999 }, { ideaId: foreign.id }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'ValidationError' });
    expect(errorOf(res.body).details).toEqual([
      { path: '[1].ideaId', message: expect.any(String) },
      { path: '[2].ideaId', message: expect.any(String) },
    ]);
    expect(await getBallot(site.id, user.id)).toBeUndefined();
    expect(await storedTallies(site.id)).toEqual({});
  });

  it('the same idea twice in a round: 400', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace' });
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: idea.id }, { ideaId: idea.id, opinion: 'no' }]);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toEqual([{ path: '[1].ideaId', message: expect.stringMatching(/more than once/) }]);
  });

  it('one idea 50 times in a round (and an unknown one 3 times): one detail each, not one per repeat', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace' });
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const round = [...Array.from({ length: 50 }, () => ({ ideaId: idea.id })), ...Array.from({ length: 3 }, () => ({ ideaId: 999_999_999 }))];
    const res = await castVotes(site.id, user.token, round);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toEqual([
      { path: '[1].ideaId', message: expect.stringMatching(/more than once in this round \(50 times\)/) },
      { path: '[50].ideaId', message: expect.stringMatching(/does not exist/) },
    ]);
    expect(await getBallot(site.id, user.id)).toBeUndefined();
  });

  it.each([
    ['a string id', [{ ideaId: '12' }], '[0].ideaId'],
    ['a negative id', [{ ideaId: -1 }], '[0].ideaId'],
    ['a fraction', [{ ideaId: 1.5 }], '[0].ideaId'],
    ['a missing id', [{ opinion: 'yes' }], '[0].ideaId'],
    ['a non-object entry', [7], '[0]'],
    ['an empty round', [], ''],
    ['a bare number', 7, ''],
    ['no body', undefined, ''],
  ])('%s: 400 ValidationError at %j', async (_what, body, path) => {
    const site = await votingSite();
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).error).toBe('ValidationError');
    expect(errorOf(res.body).details![0]!.path).toBe(path);
  });

  it('malformed JSON is a 400, another content type a 415', async () => {
    const site = await votingSite();
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, '[{"ideaId": 1')).status).toBe(400);
    const res = await castVotes(site.id, user.token, '[]', { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('an unknown site is a 404', async () => {
    const res = await castVotes(999_999_999, undefined, [{ ideaId: 1 }]);
    expect(res.status).toBe(404);
  });
});
