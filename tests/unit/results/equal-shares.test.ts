/**
 * The Method of Equal Shares and the greedy rule against published examples. Each case names its
 * source; the numbers are the source's, reproduced exactly (prices as fractions where the source
 * rounds them).
 */
import { describe, expect, it } from 'vitest';
import { continueEqualShares, equalShares, equalSharesRun, startEqualShares, toFloat } from '#lib/results/equal-shares';
import { buildProfile } from '#lib/results/profile';
import { greedyWinners } from '#lib/results/greedy';

// https://equalshares.net/explanation#example: budget 1100, 11 voters, 5 projects.
// Ids: 1 bike path (700), 2 outdoor gym (400), 3 new park (250), 4 new playground (200), 5 library (100).
const BIKE = 1;
const GYM = 2;
const PARK = 3;
const PLAYGROUND = 4;
const LIBRARY = 5;
const explanationIdeas = [
  { id: BIKE, cost: 700 },
  { id: GYM, cost: 400 },
  { id: PARK, cost: 250 },
  { id: PLAYGROUND, cost: 200 },
  { id: LIBRARY, cost: 100 },
];
// The table's columns, left to right: voter 1 voted for the bike path and the outdoor gym, and so on.
const example1Ballots = [
  [BIKE, GYM],
  [BIKE, GYM, PARK],
  [BIKE, GYM],
  [BIKE, GYM, PARK],
  [BIKE, GYM, PARK],
  [BIKE, GYM],
  [PARK, PLAYGROUND, LIBRARY],
  [PLAYGROUND],
  [PLAYGROUND, LIBRARY],
  [PARK, PLAYGROUND, LIBRARY],
  [BIKE],
];
// Example 2: the right-most voter votes for the outdoor gym instead of the bike path.
const example2Ballots = example1Ballots.map((ballot, voter) => (voter === 10 ? [GYM] : ballot));

describe('equalshares.net explanation (cost utilities: highest effective vote count first)', () => {
  it('example 1: bike path, playground, library; greedy takes bike path and gym', () => {
    const input = { ideas: explanationIdeas, ballots: example1Ballots, budget: 1100 };
    const run = equalSharesRun(input, '100', 'cost');
    expect(run.purchases).toEqual([
      { ideaId: BIKE, maxPayment: '100' }, // effective vote count 7
      { ideaId: PLAYGROUND, maxPayment: '50' }, // 4 voters pay 50
      { ideaId: LIBRARY, maxPayment: '100/3' }, // 3 voters pay 33.3
    ]);
    expect(run.spent).toBe(1000);
    expect(greedyWinners(input)).toEqual({ ideaIds: [BIKE, GYM], spent: 1100 });
  });

  it('example 2: outdoor gym at 400/7, new park at 60.7 (effective count 4.1), playground (3.3)', () => {
    const input = { ideas: explanationIdeas, ballots: example2Ballots, budget: 1100 };
    const run = equalSharesRun(input, '100', 'cost');
    // The page rounds: 57.14 per gym supporter; the park's richer supporters pay (250 - 3·300/7) / 2.
    expect(run.purchases).toEqual([
      { ideaId: GYM, maxPayment: '400/7' },
      { ideaId: PARK, maxPayment: '425/7' },
      { ideaId: PLAYGROUND, maxPayment: '425/7' },
    ]);
    // Effective vote counts as the page shows them: 250 / (425/7) = 4.1..., 200 / (425/7) = 3.29...
    expect(250 / (425 / 7)).toBeCloseTo(4.1176, 4);
    expect(run.spent).toBe(850);
  });
});

// pabutools' test suite (tests/rules/test_rule.py, COMSOC-Community/pabutools), scaled to whole
// currency units; MES is homogeneous, so scaling costs, budget and step together changes nothing.
describe('pabutools test elections', () => {
  it('AppEx_2 (costs x100): approval MES {p0,p1,p3}, cost MES {p0,p2}; iterated (+0.1): {p0,p1,p3} and {p0,p1,p2}', () => {
    const input = {
      ideas: [
        { id: 0, cost: 100 },
        { id: 1, cost: 90 },
        { id: 2, cost: 200 },
        { id: 3, cost: 109 },
      ],
      ballots: [[0], [1, 2, 3], [1, 2, 3], [2]],
      budget: 400,
    };
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    expect(sorted(equalShares(input, { completion: 'none' }).ideaIds)).toEqual([0, 1, 3]);
    expect(sorted(equalShares(input, { completion: 'none', utility: 'cost' }).ideaIds)).toEqual([0, 2]);
    expect(sorted(equalShares(input, { stepPerVoter: 10 }).ideaIds)).toEqual([0, 1, 3]);
    expect(sorted(equalShares(input, { stepPerVoter: 10, utility: 'cost' }).ideaIds)).toEqual([0, 1, 2]);
  });

  it('AppEx_4 (costs x10): a free project is bought first; iterated MES adds p1 or p2 (here p1: cheaper)', () => {
    const input = {
      ideas: [
        { id: 0, cost: 0 },
        { id: 1, cost: 10 },
        { id: 2, cost: 20 },
      ],
      ballots: [[0], [0, 1, 2], [2]],
      budget: 20,
    };
    expect(equalShares(input, { completion: 'none' }).ideaIds).toEqual([0]);
    const completed = equalShares(input);
    expect(completed.ideaIds).toEqual([0, 1]);
    expect(completed.spent).toBe(10);
  });

  // The running example of Lackner & Skowron (2023), 12 voters, 7 unit-cost projects, budget 4.
  const ls23 = (unit: number) => ({
    ideas: [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id, cost: unit })),
    ballots: [[1, 2], [1, 2], [1, 2], [1, 3], [1, 3], [1, 3], [1, 4], [1, 4], [2, 3, 6], [5], [6], [7]],
    budget: 4 * unit,
  });

  it('Lackner & Skowron running example: MES buys only a, with either utility', () => {
    expect(equalShares(ls23(1), { completion: 'none' }).ideaIds).toEqual([1]);
    expect(equalShares(ls23(1), { completion: 'none', utility: 'cost' }).ideaIds).toEqual([1]);
  });

  it('test_iterated_exhaustion: budget steps of 1/24 give {a,b,c,d}, steps of 5 leave {a} (costs x288)', () => {
    // pabutools raises the total budget by 1/24, i.e. 1/288 per voter: one unit per voter at scale 288.
    const small = equalShares(ls23(288), { utility: 'cost' });
    expect([...small.ideaIds].sort()).toEqual([1, 2, 3, 4]);
    expect(small.spent).toBe(4 * 288);
    // A total step of 5 is 5/12 per voter, 120 units at scale 288: the first step already overspends.
    expect(equalShares(ls23(288), { utility: 'cost', stepPerVoter: 120 }).ideaIds).toEqual([1]);
  });
});

describe('approval utilities on the equalshares.net example (the CONTRACT rule)', () => {
  it('buys the cheapest per supporter first: library, playground, gym; add-one adds the park', () => {
    const input = { ideas: explanationIdeas, ballots: example1Ballots, budget: 1100 };
    expect(equalSharesRun(input, '100').purchases).toEqual([
      { ideaId: LIBRARY, maxPayment: '100/3' },
      { ideaId: PLAYGROUND, maxPayment: '50' }, // ties the park at 50; the cheaper idea wins
      { ideaId: GYM, maxPayment: '200/3' },
    ]);
    const completed = equalShares(input);
    expect(completed).toMatchObject({ ideaIds: [LIBRARY, PLAYGROUND, PARK, GYM], spent: 950, endowment: '109', runs: 10 });
    // Stopped because it is exhaustive: 150 is left and the only idea not bought, the bike path, costs 700.
    expect(equalSharesRun(input, '108').ideaIds).toEqual([LIBRARY, PLAYGROUND, GYM]);
  });
});

// Ties that random instances almost never produce, built by hand: two cheap ideas (1 and 2) first
// drain some voters, so that two later ideas end at the same price of 3.
describe('tie-breaking (lowest price, then lower cost, more votes, lower id)', () => {
  it('lower cost wins a tie, also against an idea whose earlier, lower price is out of date', () => {
    // After ideas 1 and 2 (price 1 each), idea 3 (cost 8) costs its two drained supporters 1 each and its
    // two others 3 each; idea 4 (cost 6, two untouched supporters) also costs 3 each. Idea 3 was looked at
    // first (its earlier price was 2), so idea 4 must still be looked at to see the tie.
    const input = {
      ideas: [{ id: 1, cost: 4 }, { id: 2, cost: 4 }, { id: 3, cost: 8 }, { id: 4, cost: 6 }],
      ballots: [[1, 2, 3], [1, 2, 3], [1, 2], [1, 2], [3], [3], [4], [4]],
      budget: 24,
    };
    expect(equalSharesRun(input, '3').purchases).toEqual([
      { ideaId: 1, maxPayment: '1' }, // ties idea 2 in price, cost and votes: lower id
      { ideaId: 2, maxPayment: '1' },
      { ideaId: 4, maxPayment: '3' },
      { ideaId: 3, maxPayment: '3' },
    ]);
  });

  it('at equal price and cost, more votes win over a lower id', () => {
    // Ideas 3 and 4 both cost 8 at price 3; idea 4 has four supporters, idea 3 three.
    const input = {
      ideas: [{ id: 1, cost: 5 }, { id: 2, cost: 4 }, { id: 3, cost: 8 }, { id: 4, cost: 8 }],
      ballots: [[1, 2, 4], [1, 2, 4], [1, 2], [1, 2], [1, 3], [3], [3], [4], [4]],
      budget: 27,
    };
    expect(equalSharesRun(input, '3').ideaIds).toEqual([2, 1, 4, 3]);
  });
});

describe('edge cases', () => {
  it('no ballots: nothing is bought', () => {
    expect(equalShares({ ideas: [{ id: 1, cost: 5 }], ballots: [], budget: 10 })).toMatchObject({ ideaIds: [], spent: 0, runs: 0 });
  });

  it('ideas without votes and votes for unknown ideas are ignored; a duplicate vote counts once', () => {
    const input = { ideas: [{ id: 1, cost: 10 }, { id: 2, cost: 1 }], ballots: [[1, 1, 99], []], budget: 10 };
    expect(equalShares(input).ideaIds).toEqual([1]);
    expect(greedyWinners(input)).toEqual({ ideaIds: [1], spent: 10 });
  });

  it('everything fits: every idea with a vote is bought, in one extra run', () => {
    const input = { ideas: [{ id: 1, cost: 90 }, { id: 2, cost: 5 }], ballots: [[1], [2], [2]], budget: 100 };
    expect(equalShares(input)).toMatchObject({ ideaIds: [2, 1], spent: 95, endowment: '95', runs: 2 });
  });

  it('all ideas with a vote costing exactly the budget: bought together in the one extra run, the step kept', () => {
    // 4 voters, budget 4: at 1 per voter idea 1 (three supporters) is bought, idea 2's one supporter
    // holds 1 of its 2, and 2 is left, enough for idea 2: not exhaustive. Together they cost the budget.
    const input = { ideas: [{ id: 1, cost: 2 }, { id: 2, cost: 2 }], ballots: [[1], [1], [1], [2]], budget: 4 };
    expect(equalSharesRun(input, '1')).toMatchObject({ ideaIds: [1], spent: 2 });
    expect(startEqualShares(buildProfile(input), { stepPerVoter: 5 })).toEqual({ endowment: '4', kept: { ideaIds: [1, 2], spent: 4 }, next: null, increment: '5', runs: 2 });
    expect(equalShares(input)).toMatchObject({ ideaIds: [1, 2], spent: 4, endowment: '4', runs: 2 });
  });

  it('add-one stops before an overspending run; the greedy fill then spends what is left', () => {
    // 3 voters, budget 20. At 23/3 per voter: idea 1 (7, two supporters, 7/2 each), then idea 2 (5, one
    // supporter); idea 3 (5) is short of its single supporter's 25/6 left, so 8 stays unspent. At 26/3
    // the run buys 1, 4 and 2 for 21 > 20, so 23/3 is kept. The greedy fill adds idea 3, which fits.
    const input = {
      ideas: [{ id: 1, cost: 7 }, { id: 2, cost: 5 }, { id: 3, cost: 5 }, { id: 4, cost: 9 }],
      ballots: [[1, 3, 4], [2], [1, 4]],
      budget: 20,
    };
    expect(equalShares(input)).toMatchObject({ ideaIds: [1, 2], spent: 12, endowment: '23/3', runs: 3, filled: [] });
    expect(equalSharesRun(input, '26/3')).toMatchObject({ ideaIds: [1, 4, 2], spent: 21 });
    expect(equalShares(input, { greedyFill: true })).toMatchObject({ ideaIds: [1, 2, 3], spent: 17, filled: [3] });
  });

  it('rejects costs and budgets that are not whole amounts, and an idea listed twice', () => {
    expect(() => equalShares({ ideas: [{ id: 1, cost: 1.5 }], ballots: [[1]], budget: 3 })).toThrow(RangeError);
    expect(() => greedyWinners({ ideas: [{ id: 1, cost: 1 }], ballots: [[1]], budget: -1 })).toThrow(RangeError);
    expect(() => greedyWinners({ ideas: [{ id: 1, cost: 1 }, { id: 1, cost: 2 }], ballots: [], budget: 3 })).toThrow(RangeError);
    expect(() => equalShares({ ideas: [], ballots: [], budget: 3 }, { stepPerVoter: 0 })).toThrow(RangeError);
  });
});

describe('the completion as a search that a job stops and resumes', () => {
  // 40 per voter buys only idea 0; idea 1 needs 60 from its one supporter, and 90 is left for it.
  const input = { ideas: [{ id: 0, cost: 30 }, { id: 1, cost: 60 }, { id: 2, cost: 80 }], ballots: [[0], [1], [2]], budget: 120 };

  it('stopped after every run, it makes one run per call, doubles its step every runsPerStep runs, and ends where the search in one go ends', () => {
    const profile = buildProfile(input);
    const options = { stepPerVoter: 1, runsPerStep: 2 };
    let search = startEqualShares(profile, options);
    expect(search).toMatchObject({ runs: 1, increment: '1' });
    const increments: string[] = [];
    while (search.next !== null) {
      const before = search.runs;
      search = continueEqualShares(profile, search, options, () => true);
      expect(search.runs).toBe(before + 1);
      increments.push(search.increment);
    }
    expect(increments).toEqual(['1', '2', '2', '4', '4', '8', '8']);
    expect(search.kept).toEqual({ ideaIds: [0, 1], spent: 90 });
    const oneGo = equalShares(input, options);
    expect({ ideaIds: search.kept.ideaIds, endowment: search.endowment, runs: search.runs }).toEqual({ ideaIds: oneGo.ideaIds, endowment: oneGo.endowment, runs: oneGo.runs });
    expect(continueEqualShares(profile, search, options, () => true)).toEqual(search);
  });

  it('doubles its step after every runsPerStep runs of the completion, counted from the first run', () => {
    // 40 per voter to start; idea 1 is bought from 60 on, which leaves too little for idea 2: exhaustive.
    // Runs 2-4 add 1 each (41, 42, 43), runs 5-7 add 2 (45, 47, 49), runs 8-10 add 4 (53, 57, 61).
    const profile = buildProfile(input);
    const options = { runsPerStep: 3 };
    let search = startEqualShares(profile, options);
    const shares: Array<string | null> = [search.next];
    while (search.next !== null) {
      search = continueEqualShares(profile, search, options, () => true);
      shares.push(search.next);
    }
    expect(shares).toEqual(['41', '42', '43', '45', '47', '49', '53', '57', '61', null]);
    expect(search).toEqual({ endowment: '61', kept: { ideaIds: [0, 1], spent: 90 }, next: null, increment: '4', runs: 10 });
    expect(equalShares(input, options)).toMatchObject({ ideaIds: [0, 1], spent: 90, endowment: '61', runs: 10 });
  });

  it('names an option that is not a whole number of at least 1', () => {
    const profile = buildProfile(input);
    expect(() => startEqualShares(profile, { stepPerVoter: 0 })).toThrow('stepPerVoter must be a whole number >= 1');
    expect(() => startEqualShares(profile, { runsPerStep: 1.5 })).toThrow('runsPerStep must be a whole number >= 1');
    expect(() => continueEqualShares(profile, startEqualShares(profile), { runsPerStep: 0 })).toThrow('runsPerStep must be a whole number >= 1');
  });

  it('without voters nothing is bought and nothing is run', () => {
    expect(startEqualShares(buildProfile({ ...input, ballots: [] }), { stepPerVoter: 3 })).toEqual({ endowment: '0', kept: { ideaIds: [], spent: 0 }, next: null, increment: '3', runs: 0 });
    expect(equalShares({ ...input, ballots: [] })).toEqual({ ideaIds: [], spent: 0, endowment: '0', purchases: [], runs: 0, filled: [] });
  });
});

describe('toFloat (the float copies that screen prices)', () => {
  it('is close also when numerator or denominator are beyond the float range', () => {
    expect(toFloat(1n, 3n)).toBeCloseTo(1 / 3, 15);
    const huge = 10n ** 400n;
    expect(toFloat(huge, huge * 4n)).toBeCloseTo(0.25, 12);
    expect(toFloat(10n ** 308n, 10n ** 310n)).toBeCloseTo(0.01, 12); // denominator alone overflows a float
    expect(toFloat(0n, huge)).toBe(0);
  });
});
