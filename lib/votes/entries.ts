/**
 * Checks of each entry of a round on its own: the idea exists, appears once, the opinion is allowed
 * and, for per-theme voting, the idea belongs to a configured theme. These come before any check that
 * depends on the votes the user already holds: a malformed round is a 400 whatever the ballot.
 */
import type { ErrorDetail } from '#lib/errors';
import type { CastVote, IdeaForVote, ThemeLimits, VotesConfig } from '#lib/votes/types';
import { isPerTheme, voteTypeRules } from '#schemas/vote-types';

/**
 * Opinions a round may use: the site's `voteValues` and the type's fixed opinions (for likes the spec
 * fixes `yes`/`no`, so a site that relabels its values cannot lock out a plain like).
 */
export function allowedOpinions(config: Pick<VotesConfig, 'voteType' | 'voteValues'>): Set<string> {
  return new Set([...config.voteValues.map((v) => v.value), ...voteTypeRules(config.voteType).fixedOpinions]);
}


/** The first `themes[]` entry whose value is the idea's theme (duplicated values: the first wins). */
export function themeOf(idea: IdeaForVote, themes: readonly ThemeLimits[] | undefined): ThemeLimits | undefined {
  if (idea.theme === null) return undefined;
  return themes?.find((t) => t.value === idea.theme);
}

/**
 * One detail per failing field, and one per idea for what is wrong with the idea itself: a round that
 * names an idea 50 times gets one "appears 50 times" detail (at the first repeat), not 49 copies, and
 * an unknown idea named twice one "does not exist" (at its first place).
 */
export function checkEntries(
  config: VotesConfig,
  round: readonly CastVote[],
  ideas: ReadonlyMap<number, IdeaForVote>,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const allowed = allowedOpinions(config);
  const perTheme = isPerTheme(config.voteType);
  const occurrences = new Map<number, number[]>();
  for (const [i, entry] of round.entries()) occurrences.set(entry.ideaId, [...(occurrences.get(entry.ideaId) ?? []), i]);

  round.forEach((entry, i) => {
    const places = occurrences.get(entry.ideaId)!;
    const idea = ideas.get(entry.ideaId);
    if (places[0] === i) {
      if (!idea) {
        details.push({ path: `[${i}].ideaId`, message: `Idea ${entry.ideaId} does not exist on this site` });
      } else if (perTheme && !themeOf(idea, config.themes)) {
        details.push({
          path: `[${i}].ideaId`,
          message:
            idea.theme === null
              ? `Idea ${entry.ideaId} has no theme, so it cannot be voted for per theme`
              : `Idea ${entry.ideaId} has theme "${idea.theme}", which is not one of the voting themes`,
        });
      }
    } else if (places[1] === i && idea) {
      details.push({
        path: `[${i}].ideaId`,
        message: `Idea ${entry.ideaId} appears more than once in this round (${places.length} times); vote for each idea once`,
      });
    }

    if (!allowed.has(entry.opinion)) {
      details.push({
        path: `[${i}].opinion`,
        message: `Opinion "${entry.opinion}" is not allowed; use one of: ${[...allowed].join(', ') || '(none configured)'}`,
      });
    }
  });
  return details;
}
