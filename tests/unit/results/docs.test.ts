/**
 * docs/results.md's worked example and Pabulib excerpt are recomputed here, so the document cannot
 * drift from the code: the blocks between the `results-example` and `pabulib-example` markers must be
 * exactly what these functions produce.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { equalShares, equalSharesRun } from '#lib/results/equal-shares';
import { greedyWinners } from '#lib/results/greedy';
import { pabulibFile } from '#lib/results/pabulib';

const doc = readFileSync(new URL('../../../docs/results.md', import.meta.url), 'utf8');

function block(name: string): string {
  const match = new RegExp(`<!-- ${name}:start -->\\n\`\`\`text\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(doc);
  if (!match) throw new Error(`docs/results.md has no ${name} block`);
  return match[1]!;
}

const names: Record<number, string> = { 1: 'bike path', 2: 'outdoor gym', 3: 'new park', 4: 'playground', 5: 'library' };
const ideas = [
  { id: 1, cost: 700 },
  { id: 2, cost: 400 },
  { id: 3, cost: 250 },
  { id: 4, cost: 200 },
  { id: 5, cost: 100 },
];
const ballots = [[1, 2], [1, 2, 3], [1, 2], [1, 2, 3], [1, 2, 3], [1, 2], [3, 4, 5], [4], [4, 5], [3, 4, 5], [1]];
const input = { ideas, ballots, budget: 1100 };

const bought = (purchases: { ideaId: number; maxPayment: string }[]) =>
  purchases.map((p) => `${names[p.ideaId]} (${p.ideaId}) at ${p.maxPayment}`).join(', ');

describe('docs/results.md', () => {
  it('the worked example is what the code computes', () => {
    const greedy = greedyWinners(input);
    const first = equalSharesRun(input, '100');
    const completed = equalShares(input);
    const cost = equalSharesRun(input, '100', 'cost');
    const lines = [
      `budget ${input.budget}, ${ballots.length} voters, ${input.budget / ballots.length} per voter`,
      `greedy: ${greedy.ideaIds.map((id) => `${names[id]} (${id})`).join(', ')}; spent ${greedy.spent}`,
      `equal shares at 100 per voter: ${bought(first.purchases)}; spent ${first.spent}`,
      `equal shares, add-one: ${completed.endowment} per voter after ${completed.runs} runs: ${bought(completed.purchases)}; spent ${completed.spent}`,
      `equal shares, cost utilities (equalshares.net): ${bought(cost.purchases)}; spent ${cost.spent}`,
    ];
    expect(block('results-example')).toBe(`${lines.join('\n')}\n`);
  });

  it('the Pabulib excerpt is the start of what the writer produces for the example', () => {
    const votes = ballots.map((projectIds, i) => ({ voterId: String(i + 1), projectIds }));
    const file = [
      ...pabulibFile(
        {
          description: 'Worked example of docs/results.md',
          country: 'Worldwide',
          unit: 'equalshares.net',
          instance: 'example-1',
          num_votes: votes.length,
          budget: input.budget,
          vote_type: 'approval',
          rule: 'equalshares/add1',
          date_begin: '2024',
          date_end: '2024',
        },
        ideas.map((idea) => ({ ...idea, votes: ballots.filter((b) => b.includes(idea.id)).length, name: names[idea.id]! })),
        votes,
      ),
    ].join('');
    const excerpt = block('pabulib-example');
    expect(file.startsWith(excerpt)).toBe(true);
    expect(excerpt).toContain('VOTES\nvoter_id;vote\n');
  });
});
