/**
 * Property tests of the voting rules: random configs, ideas and sequences of rounds, with fixed seeds
 * and bounded runs so a failure reproduces. The checks here use their own small oracles (limit checks,
 * counting) rather than the library's helpers, so a shared bug cannot hide.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/errors';
import { assertVotingOpen } from '#lib/votes/availability';
import { validateVoteRoundBody } from './helpers';
import { planRound } from '#lib/votes/round';
import type { BallotVote, CastVote, IdeaForVote, RoundPlan, VotesConfig } from '#lib/votes/types';
import { asPairs, votesConfig } from './helpers';

const RUNS = { seed: 20240615, numRuns: 300 } as const;

const IDEA_IDS = [1, 2, 3, 4, 5, 6, 7, 8];
const THEMES = ['a', 'b', 'c'] as const;

const ideasArb: fc.Arbitrary<Map<number, IdeaForVote>> = fc
  .tuple(
    ...IDEA_IDS.map((id) =>
      fc.record({
        id: fc.constant(id),
        budget: fc.option(fc.integer({ min: 0, max: 600 }), { nil: null }),
        theme: fc.option(fc.constantFrom(...THEMES), { nil: null }),
      }),
    ),
  )
  .map((ideas) => new Map(ideas.map((idea) => [idea.id, idea])));

// Limits are unset half of the time, or nearly every round would be rejected and the properties would
// say little about accepted ones.
const optionalLimit = (min: number, max: number) => fc.option(fc.integer({ min, max }), { nil: undefined, freq: 2 });

const themeArb = (value: string) =>
  fc.record({
    value: fc.constant(value),
    minIdeas: optionalLimit(0, 2),
    maxIdeas: optionalLimit(1, 3),
    minBudget: optionalLimit(0, 400),
    maxBudget: optionalLimit(200, 1200),
  });

const BALLOT_TYPES = ['count', 'budgeting', 'count-per-theme', 'budgeting-per-theme'] as const;

const ballotConfigOf = (voteType: fc.Arbitrary<VotesConfig['voteType']>): fc.Arbitrary<VotesConfig> => fc
  .record({
    voteType,
    withExisting: fc.constantFrom('error', 'replace', 'merge'),
    minIdeas: fc.integer({ min: 0, max: 3 }),
    maxIdeas: fc.integer({ min: 0, max: 6 }),
    minBudget: fc.option(fc.integer({ min: 0, max: 800 }), { nil: null, freq: 2 }),
    maxBudget: fc.option(fc.integer({ min: 200, max: 2000 }), { nil: null, freq: 2 }),
    // 'c' is left out at times so that some ideas match no theme.
    themes: fc.option(fc.tuple(themeArb('a'), themeArb('b'), fc.option(themeArb('c'), { nil: undefined })), {
      nil: undefined,
      freq: 10,
    }),
  })
  .map(({ themes, ...rest }) =>
    votesConfig({ ...rest, themes: themes?.filter((t): t is NonNullable<typeof t> => t !== undefined) }),
  );

const ballotConfigArb = ballotConfigOf(fc.constantFrom(...BALLOT_TYPES));

// Mostly well-formed rounds, so that many are accepted; now and then an unknown idea (9), an opinion
// that is not allowed ('maybe'), an idea twice, or an empty round.
const entryArb = fc.record({
  ideaId: fc.oneof({ arbitrary: fc.constantFrom(...IDEA_IDS), weight: 12 }, { arbitrary: fc.constant(9), weight: 1 }),
  opinion: fc.oneof({ arbitrary: fc.constantFrom('yes', 'yes', 'no'), weight: 12 }, { arbitrary: fc.constant('maybe'), weight: 1 }),
});
const roundArb: fc.Arbitrary<CastVote[]> = fc.oneof(
  { arbitrary: fc.uniqueArray(entryArb, { selector: (e) => e.ideaId, maxLength: 5 }), weight: 6 },
  { arbitrary: fc.array(entryArb, { maxLength: 5 }), weight: 1 },
);

/** Independent check of the limits on a held vote set (the rules as the brief states them). */
function obeysLimits(config: VotesConfig, votes: readonly { ideaId: number }[], ideas: Map<number, IdeaForVote>): boolean {
  const ids = [...new Set(votes.map((v) => v.ideaId))];
  const within = (n: number, min?: number | null, max?: number | null) =>
    (min === undefined || min === null || n >= min) && (max === undefined || max === null || n <= max);
  const budget = (list: number[]) => list.reduce((sum, id) => sum + (ideas.get(id)?.budget ?? 0), 0);
  const budgeting = config.voteType === 'budgeting' || config.voteType === 'budgeting-per-theme';
  const perTheme = config.voteType.endsWith('-per-theme');

  if (!within(ids.length, config.minIdeas, config.maxIdeas)) return false;
  if (budgeting && !within(budget(ids), config.minBudget, config.maxBudget)) return false;
  if (perTheme) {
    for (const theme of config.themes ?? []) {
      const inTheme = ids.filter((id) => ideas.get(id)?.theme === theme.value);
      if (inTheme.length === 0) continue;
      if (!within(inTheme.length, theme.minIdeas, theme.maxIdeas)) return false;
      if (budgeting && !within(budget(inTheme), theme.minBudget, theme.maxBudget)) return false;
    }
    // Every held idea must belong to a configured theme.
    if (!ids.every((id) => config.themes?.some((t) => t.value === ideas.get(id)?.theme))) return false;
  }
  return true;
}

/** Plain counting oracle: `${ideaId}:${opinion}` -> count, zeros left out. */
function countPairs(votes: Iterable<{ ideaId: number; opinion: string }>, sign = 1, into = new Map<string, number>()) {
  for (const v of votes) {
    const key = `${v.ideaId}:${v.opinion}`;
    const n = (into.get(key) ?? 0) + sign;
    if (n === 0) into.delete(key);
    else into.set(key, n);
  }
  return into;
}

function deltasAsPairs(plan: RoundPlan): Map<string, number> {
  const out = new Map<string, number>();
  for (const [ideaId, perOpinion] of plan.tallyDeltas) {
    for (const [opinion, n] of Object.entries(perOpinion)) {
      expect(n).not.toBe(0);
      out.set(`${ideaId}:${opinion}`, n);
    }
  }
  return out;
}

const sortedEntries = (m: Map<string, number>) => [...m].sort(([a], [b]) => a.localeCompare(b));

/** Turns a plan into the ballot the store would hold afterwards. */
function apply(plan: RoundPlan, newId: () => number): BallotVote[] {
  return plan.next.map(
    (v) => v.keep ?? { id: newId(), ideaId: v.ideaId, opinion: v.opinion, createdAt: '2024-06-15T12:00:00.000Z' },
  );
}

/** Runs a sequence of rounds, keeping state only for accepted rounds; checks every plan on the way. */
function runSequence(config: VotesConfig, ideas: Map<number, IdeaForVote>, rounds: CastVote[][]) {
  let ballot: BallotVote[] = [];
  let id = 0;
  const running = new Map<string, number>();
  for (const round of rounds) {
    let plan: RoundPlan;
    try {
      plan = planRound({ config, existing: ballot, round, ideas });
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      continue;
    }
    // The plan is consistent: next = existing - removed + added, kept records come from the ballot.
    const expectedNext = countPairs(plan.added, 1, countPairs(plan.removed, -1, countPairs(ballot)));
    expect(sortedEntries(countPairs(plan.next))).toEqual(sortedEntries(expectedNext));
    for (const v of plan.next) if (v.keep) expect(ballot).toContain(v.keep);
    for (const v of plan.removed) expect(ballot).toContain(v);
    expect(plan.next.filter((v) => !v.keep)).toHaveLength(plan.added.length);
    // tallyDeltas is exactly next minus existing.
    const diff = countPairs(ballot, -1, countPairs(plan.next));
    expect(sortedEntries(deltasAsPairs(plan))).toEqual(sortedEntries(diff));

    countPairs(plan.next, 1, countPairs(ballot, -1, running));
    ballot = apply(plan, () => ++id);
  }
  return { ballot, running };
}

describe('voting rule properties', () => {
  it.each(BALLOT_TYPES)('(a) %s: the held vote set always obeys the limits', (voteType) => {
    let accepted = 0;
    fc.assert(
      fc.property(ballotConfigOf(fc.constant(voteType)), ideasArb, fc.array(roundArb, { maxLength: 8 }), (config, ideas, rounds) => {
        let ballot: BallotVote[] = [];
        let id = 0;
        for (const round of rounds) {
          try {
            ballot = apply(planRound({ config, existing: ballot, round, ideas }), () => ++id);
          } catch {
            continue;
          }
          accepted += 1;
          expect(obeysLimits(config, ballot, ideas)).toBe(true);
          // A ballot never holds two votes on one idea.
          expect(new Set(ballot.map((v) => v.ideaId)).size).toBe(ballot.length);
        }
      }),
      RUNS,
    );
    // Not vacuous: enough rounds were accepted to say something.
    expect(accepted).toBeGreaterThan(25);
  });

  it('(a2) the rules accept some rounds (the property above is not vacuous)', () => {
    const config = votesConfig({ voteType: 'budgeting', withExisting: 'replace', minIdeas: 1, maxIdeas: 3, maxBudget: 1000 });
    let accepted = 0;
    fc.assert(
      fc.property(ideasArb, roundArb, (ideas, round) => {
        try {
          planRound({ config, existing: [], round, ideas });
          accepted += 1;
        } catch {
          // rejected rounds are fine here
        }
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(10);
  });

  it('(b) summed tallyDeltas of accepted rounds equal the counts of the final vote set', () => {
    const anyConfig = fc.oneof(
      ballotConfigArb,
      fc.constantFrom('error', 'replace', 'merge').map((withExisting) => votesConfig({ voteType: 'likes', withExisting })),
    );
    fc.assert(
      fc.property(anyConfig, ideasArb, fc.array(roundArb, { maxLength: 8 }), (config, ideas, rounds) => {
        const { ballot, running } = runSequence(config, ideas, rounds);
        expect(sortedEntries(running)).toEqual(sortedEntries(countPairs(ballot)));
      }),
      RUNS,
    );
  });

  it('(c) a rejected round throws an ApiError with status 400, 403 or 409, never a plain Error', () => {
    const windowEnd = fc.option(fc.constantFrom('2024-01-01', '2024-06-15T12:00:00Z', '2024-12-31', 'garbage', ''), {
      nil: null,
    });
    const configArb = fc
      .record({
        base: fc.oneof(ballotConfigArb, fc.constant(votesConfig({ voteType: 'likes' }))),
        isActive: fc.constantFrom(true, false, null),
        isActiveFrom: windowEnd,
        isActiveTo: windowEnd,
        voteValues: fc.array(fc.record({ value: fc.constantFrom('yes', 'no', 'up', '') }), { maxLength: 3 }),
      })
      .map(({ base, ...rest }) => ({ ...base, ...rest }));
    const existingArb = fc.array(
      fc.record({
        id: fc.nat(),
        ideaId: fc.integer({ min: 1, max: 12 }),
        opinion: fc.constantFrom('yes', 'no', 'up'),
        createdAt: fc.constant('2024-01-01T00:00:00.000Z'),
      }),
      { maxLength: 5 },
    );
    const nowArb = fc.date({ min: new Date('2023-06-01'), max: new Date('2025-06-01'), noInvalidDate: true });

    fc.assert(
      fc.property(configArb, ideasArb, existingArb, roundArb, nowArb, (config, ideas, existing, round, now) => {
        try {
          assertVotingOpen(config, now);
          planRound({ config, existing, round, ideas });
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect([400, 403, 409]).toContain((err as ApiError).status);
        }
      }),
      RUNS,
    );
  });

  it('(c2) any body either validates or throws a 400 ApiError', () => {
    const entry = fc.record(
      { ideaId: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)), opinion: fc.oneof(fc.string(), fc.anything()) },
      { requiredKeys: [] },
    );
    const bodyArb = fc.oneof(fc.anything(), entry, fc.array(fc.oneof(entry, fc.anything()), { maxLength: 6 }));
    fc.assert(
      fc.property(bodyArb, (body) => {
        try {
          const round = validateVoteRoundBody(body);
          expect(round.length).toBeGreaterThan(0);
          for (const v of round) {
            expect(Number.isSafeInteger(v.ideaId) && v.ideaId > 0).toBe(true);
            expect(typeof v.opinion === 'string' && v.opinion.length > 0 && v.opinion.length <= 64).toBe(true);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).status).toBe(400);
          expect((err as ApiError).details?.length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  it('(e) replace: re-sending an accepted round changes nothing and keeps every record', () => {
    // Rounds that the rules accept, by construction (known ideas once each, allowed opinions, limits
    // wide enough), so every run checks the property: a generator that the rules mostly reject left
    // 259 of 300 runs checking nothing.
    const acceptedArb = fc
      .tuple(
        fc.constantFrom(...BALLOT_TYPES),
        fc.uniqueArray(fc.constantFrom(...IDEA_IDS), { minLength: 1, maxLength: 5 }),
        ideasArb,
      )
      .map(([voteType, ideaIds, ideas]) => ({
        config: votesConfig({ voteType, withExisting: 'replace', minIdeas: 1, maxIdeas: 8, minBudget: null, maxBudget: null, themes: [{ value: 'a' }] }),
        round: ideaIds.map((ideaId): CastVote => ({ ideaId, opinion: 'yes' })),
        // Per-theme types take only ideas of a configured theme.
        ideas: new Map([...ideas].map(([id, idea]) => [id, { ...idea, theme: 'a' }])),
      }));
    let checked = 0;
    fc.assert(
      fc.property(acceptedArb, ({ config, round, ideas }) => {
        let id = 0;
        const ballot = apply(planRound({ config, existing: [], round, ideas }), () => ++id);
        expect(ballot).toHaveLength(round.length);
        const again = planRound({ config, existing: ballot, round, ideas });
        expect(again.added).toEqual([]);
        expect(again.removed).toEqual([]);
        expect(again.tallyDeltas.size).toBe(0);
        expect(again.next.map((v) => v.keep)).toEqual(ballot);
        checked++;
      }),
      RUNS,
    );
    expect(checked).toBe(RUNS.numRuns);
  });

  it('(d) likes: the same round twice returns to the original set (swaps excepted, see below)', () => {
    const knownIdea = fc.constantFrom(...IDEA_IDS);
    const ballotArb = fc
      .uniqueArray(fc.record({ ideaId: knownIdea, opinion: fc.constantFrom('yes', 'no') }), {
        selector: (v) => v.ideaId,
        maxLength: 6,
      })
      .map((votes) => votes.map((v, i): BallotVote => ({ id: i + 1, ...v, createdAt: '2024-01-01T00:00:00.000Z' })));
    const likesRoundArb = fc.uniqueArray(fc.record({ ideaId: knownIdea, opinion: fc.constantFrom('yes', 'no') }), {
      selector: (v) => v.ideaId,
      minLength: 1,
      maxLength: 5,
    });
    const configArb = fc
      .constantFrom('error', 'replace', 'merge')
      .map((withExisting) => votesConfig({ voteType: 'likes', withExisting, minIdeas: 3, maxIdeas: 1 }));

    const applyRound = (config: VotesConfig, ideas: Map<number, IdeaForVote>, ballot: BallotVote[], round: CastVote[]) => {
      let id = 1000 + ballot.length;
      return apply(planRound({ config, existing: ballot, round, ideas }), () => ++id);
    };

    // Literally "twice returns to the original" holds whenever the round does not swap an opinion: each
    // idea in it is either unvoted (add, then cancel) or held with the same opinion (cancel, then add).
    fc.assert(
      fc.property(configArb, ideasArb, ballotArb, likesRoundArb, (config, ideas, original, rawRound) => {
        const heldOpinion = new Map(original.map((v) => [v.ideaId, v.opinion]));
        const round = rawRound.map((v) => ({ ideaId: v.ideaId, opinion: heldOpinion.get(v.ideaId) ?? v.opinion }));
        const twice = applyRound(config, ideas, applyRound(config, ideas, original, round), round);
        expect(asPairs(twice)).toEqual(asPairs(original));
      }),
      RUNS,
    );

    // A swap (held `yes`, round `no`) is not undone by the same round: the spec's toggle turns it into
    // `no`, and `no` again cancels. What holds for every round: twice leaves the original minus the
    // swapped ideas, and from the first application on the round is its own inverse.
    fc.assert(
      fc.property(configArb, ideasArb, ballotArb, likesRoundArb, (config, ideas, original, round) => {
        const once = applyRound(config, ideas, original, round);
        const twice = applyRound(config, ideas, once, round);
        const thrice = applyRound(config, ideas, twice, round);
        const swapped = new Set(
          round.filter((r) => original.some((v) => v.ideaId === r.ideaId && v.opinion !== r.opinion)).map((r) => r.ideaId),
        );
        expect(asPairs(twice)).toEqual(asPairs(original.filter((v) => !swapped.has(v.ideaId))));
        expect(asPairs(thrice)).toEqual(asPairs(once));
      }),
      RUNS,
    );
  });
});
