/**
 * Rows of `GET .../export/ideas?format=csv` (CONTRACT: ideas with tallies, status, budget, theme), one
 * page at a time: the header row goes on the first page only, so pages can be concatenated.
 */
import { type Cell, csvRows } from '#lib/results/csv';
import type { Tally } from '#lib/votes/types';

const IDEA_CSV_COLUMNS = ['id', 'title', 'status', 'budget', 'theme', 'yes', 'no', 'createdAt'] as const;

interface IdeaExportRecord {
  id: number;
  title: string;
  status: string;
  budget: number | null;
  theme: string | null;
  createdAt: string;
}

/** CSV text of one page of ideas, with their `yes` and `no` counts from `tally`. */
export function ideaCsvPage(ideas: readonly IdeaExportRecord[], tally: Tally, withHeader: boolean): string {
  const rows: Cell[][] = ideas.map((idea) => {
    const counts = tally.get(idea.id);
    return [idea.id, idea.title, idea.status, idea.budget, idea.theme, counts?.yes ?? 0, counts?.no ?? 0, idea.createdAt];
  });
  return csvRows(withHeader ? [[...IDEA_CSV_COLUMNS], ...rows] : rows);
}
