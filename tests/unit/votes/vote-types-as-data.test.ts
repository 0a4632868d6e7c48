/**
 * Vote types are data: every rule reads a type's row of schemas/vote-types.ts, never its name. A type
 * added to the table (here: a copy of each existing row under another name) behaves exactly as the row
 * it copies, in rounds, opinions, limits and results; and no source file compares a vote type's name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '#lib/errors';
import { computeResults, type ResultsIdea } from '#lib/results/results';
import { allowedOpinions } from '#lib/votes/entries';
import { planRound } from '#lib/votes/round';
import type { CastVote, VotesConfig } from '#lib/votes/types';
import { limitsReadIdeas, VOTE_TYPE_NAMES, VOTE_TYPES, type VoteType, type VoteTypeRules } from '#schemas/vote-types';
import { held, ideaMap, votesConfig } from './helpers.ts';

const table = VOTE_TYPES as unknown as Record<string, VoteTypeRules>;
const added: string[] = [];
/** Adds a row under a new name, as a new vote type would be added. */
function addType(name: string, rules: VoteTypeRules): VoteType {
  table[name] = rules;
  added.push(name);
  return name as VoteType;
}
afterAll(() => {
  for (const name of added) Reflect.deleteProperty(table, name);
});

/** A round's outcome as data: the plan, or the error's status and details. */
function outcome(run: () => unknown): unknown {
  try {
    return { plan: run() };
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, message: err.message, details: err.details };
    throw err;
  }
}

const ideas = ideaMap({ id: 1, budget: 300, theme: 'green' }, { id: 2, budget: 500, theme: 'roads' }, { id: 3, budget: 900, theme: null }, { id: 4, budget: null, theme: 'green' });
const limits: Partial<VotesConfig> = {
  minIdeas: 1,
  maxIdeas: 2,
  maxBudget: 1000,
  themes: [{ value: 'green', maxIdeas: 1, maxBudget: 400 }, { value: 'roads' }],
  voteValues: [{ value: 'yes' }, { value: 'maybe' }],
};
const rounds: { existing: ReturnType<typeof held>[]; round: CastVote[]; withExisting: VotesConfig['withExisting'] }[] = [
  { existing: [], round: [{ ideaId: 1, opinion: 'yes' }], withExisting: 'error' },
  { existing: [held(1, 'yes')], round: [{ ideaId: 1, opinion: 'yes' }], withExisting: 'replace' },
  { existing: [held(1, 'yes')], round: [{ ideaId: 2, opinion: 'yes' }], withExisting: 'merge' },
  { existing: [held(2, 'yes')], round: [{ ideaId: 1, opinion: 'no' }, { ideaId: 4, opinion: 'maybe' }], withExisting: 'merge' },
  { existing: [], round: [{ ideaId: 3, opinion: 'yes' }, { ideaId: 2, opinion: 'yes' }], withExisting: 'replace' },
  { existing: [], round: [{ ideaId: 1, opinion: 'yes' }, { ideaId: 4, opinion: 'yes' }], withExisting: 'error' },
  { existing: [held(3, 'yes')], round: [{ ideaId: 1, opinion: 'yes' }], withExisting: 'error' },
];

const resultIdeas: ResultsIdea[] = [...ideas.values()].map((idea) => ({ id: idea.id, title: `Idea ${idea.id}`, budget: idea.budget, theme: idea.theme }));
const resultBallots = [
  { votes: [{ ideaId: 1, opinion: 'yes' }, { ideaId: 2, opinion: 'yes' }] },
  { votes: [{ ideaId: 2, opinion: 'yes' }, { ideaId: 4, opinion: 'no' }] },
  { votes: [{ ideaId: 3, opinion: 'yes' }] },
];

describe('a vote type added to the table', () => {
  it.each(VOTE_TYPE_NAMES)('behaves as the row it copies (%s): rounds, opinions, limits, results', (original) => {
    const copy = addType(`copy-of-${original}`, { ...VOTE_TYPES[original] });
    for (const { existing, round, withExisting } of rounds) {
      const plan = (voteType: VoteType) => outcome(() => planRound({ config: votesConfig({ ...limits, withExisting, voteType }), existing, round, ideas }));
      expect(plan(copy)).toEqual(plan(original));
    }
    expect(allowedOpinions(votesConfig({ ...limits, voteType: copy }))).toEqual(allowedOpinions(votesConfig({ ...limits, voteType: original })));
    expect(limitsReadIdeas(copy)).toBe(limitsReadIdeas(original));
    const results = (voteType: VoteType) => computeResults({ config: { voteType, maxBudget: 1000, themes: limits.themes }, ideas: resultIdeas, ballots: resultBallots, computedAt: '2026-01-01T00:00:00.000Z' });
    expect({ ...results(copy), voteType: original }).toEqual(results(original));
  });

  it('a new combination works from its row alone: toggled rounds with a budget per theme', () => {
    const fresh = addType('likes-with-budgets', { round: 'toggle', fixedOpinions: ['up'], budgeting: true, perTheme: true, winners: 'themes', pabulib: false });
    const config = votesConfig({ ...limits, voteType: fresh });
    expect([...allowedOpinions(config)].sort()).toEqual(['maybe', 'up', 'yes']);
    // Toggled: a second `up` on the same idea takes the first back.
    const again = planRound({ config, existing: [held(1, 'up')], round: [{ ideaId: 1, opinion: 'up' }], ideas });
    expect(again.next).toEqual([]);
    // An idea outside the voting themes is refused, as for every per-theme type.
    expect(outcome(() => planRound({ config, existing: [], round: [{ ideaId: 3, opinion: 'up' }], ideas }))).toMatchObject({ status: 400 });
    const results = computeResults({ config: { voteType: fresh, maxBudget: 1000, themes: limits.themes }, ideas: resultIdeas, ballots: resultBallots.map((b) => ({ votes: b.votes.map((v) => ({ ...v, opinion: 'yes' })) })), computedAt: '2026-01-01T00:00:00.000Z' });
    expect(results.winners).toBeUndefined();
    expect(results.themes?.map((theme) => theme.value)).toEqual(['green', 'roads']);
  });
});

describe('no rule names a vote type', () => {
  const names = VOTE_TYPE_NAMES.join('|');
  const comparison = new RegExp(`voteType\\s*[!=]==?|[!=]==?\\s*'(?:${names})'|case\\s+'(?:${names})'`);
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));

  it('lib, functions and schemas compare no vote type by name (the table is read instead)', () => {
    const offenders = ['lib', 'functions', 'schemas']
      .flatMap(sources)
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').map((line, i) => ({ where: `${file}:${i + 1}`, line })))
      .filter(({ line }) => comparison.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});
