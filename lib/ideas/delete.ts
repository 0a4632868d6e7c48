/**
 * Deleting an idea and what hangs off it; false when there was no such idea (nor a tombstone of one):
 * 1. the idea becomes a tombstone and its tally `gone`, in one transaction: from then on no vote or
 *    argument can be added to it;
 * 2. its arguments;
 * 3. its votes from every ballot, each with its count (lib/votes/remove-votes.ts), then its tally;
 * 4. its index items (readers ignore them once the idea is a tombstone);
 * 5. the tombstone itself.
 * Every step can run again, so a DELETE retried after a failure halfway finishes the job.
 * Cost grows with what is deleted; list and read calls stay constant.
 */
import { deleteArgumentsOfIdea, deleteIdeaIndexItems, deleteIdeaItem, markIdeaDeleting } from '#lib/store/ideas/ideas';
import { removeIdeaFromBallots } from '#lib/votes/remove-votes';

export async function deleteIdeaAndRelated(siteId: number, ideaId: number): Promise<boolean> {
  if (!(await markIdeaDeleting(siteId, ideaId))) return false;
  await deleteArgumentsOfIdea(siteId, ideaId);
  await removeIdeaFromBallots(siteId, ideaId);
  await deleteIdeaIndexItems(siteId, ideaId);
  await deleteIdeaItem(siteId, ideaId);
  return true;
}
