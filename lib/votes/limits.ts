/**
 * Limits of a vote set (count, budgeting and the per-theme types). They are checked on the set the user
 * would hold after the round, not on the round alone, so `merge` cannot be used to creep past them.
 *
 * Decisions where the spec is silent:
 * - An idea whose `budget` is null counts as 0 towards a budget (it has no price yet; refusing the
 *   vote would punish the voter for a missing moderator entry).
 * - `minBudget`/`maxBudget` (overall) apply to `budgeting` and `budgeting-per-theme` when set; `count`
 *   and `count-per-theme` ignore budgets altogether, also those inside a theme entry.
 * - Per-theme: only themes the set has votes in are checked against their entry (as OpenStad checks
 *   each theme's budget on its own); a theme with a minimum but no votes is not an error. The overall
 *   `minIdeas`/`maxIdeas` still apply to the whole set.
 * - Plain `budgeting` ignores `themes` even when it is set.
 * - A held vote whose idea is missing from `ideas` (deleted) or no longer matches a theme still counts
 *   towards the overall number of ideas, with budget 0, and is not checked against any theme: the voter
 *   cannot fix it, so it must not block them.
 */
import type { ErrorDetail } from '#lib/errors';
import { themeOf } from '#lib/votes/entries';
import type { IdeaForVote, ThemeLimits, VotesConfig } from '#lib/votes/types';
import { isBudgeting, isPerTheme } from '#schemas/vote-types';

const isLimit = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

function checkRange(label: string, value: number, min: number | null | undefined, max: number | null | undefined) {
  const details: ErrorDetail[] = [];
  if (isLimit(min) && value < min) details.push({ path: '', message: `${label} ${value} is below the minimum of ${min}` });
  if (isLimit(max) && value > max) details.push({ path: '', message: `${label} ${value} is above the maximum of ${max}` });
  return details;
}

const budgetOf = (idea: IdeaForVote | undefined) => idea?.budget ?? 0;

export function checkLimits(
  config: VotesConfig,
  set: readonly { ideaId: number }[],
  ideas: ReadonlyMap<number, IdeaForVote>,
): ErrorDetail[] {
  const ideaIds = [...new Set(set.map((v) => v.ideaId))];
  const budgeting = isBudgeting(config.voteType);

  const details = checkRange('Number of ideas', ideaIds.length, config.minIdeas, config.maxIdeas);
  if (budgeting) {
    const total = ideaIds.reduce((sum, id) => sum + budgetOf(ideas.get(id)), 0);
    details.push(...checkRange('Budget', total, config.minBudget, config.maxBudget));
  }
  if (!isPerTheme(config.voteType)) return details;

  const groups = new Map<ThemeLimits, number[]>();
  for (const id of ideaIds) {
    const idea = ideas.get(id);
    const theme = idea && themeOf(idea, config.themes);
    if (!theme) continue;
    groups.set(theme, [...(groups.get(theme) ?? []), id]);
  }
  // Report in the order of `themes[]` so messages are stable.
  for (const theme of config.themes ?? []) {
    const ids = groups.get(theme);
    if (!ids) continue;
    const label = `Theme "${theme.value}":`;
    details.push(...checkRange(`${label} number of ideas`, ids.length, theme.minIdeas, theme.maxIdeas));
    if (budgeting) {
      const total = ids.reduce((sum, id) => sum + budgetOf(ideas.get(id)), 0);
      details.push(...checkRange(`${label} budget`, total, theme.minBudget, theme.maxBudget));
    }
  }
  return details;
}
