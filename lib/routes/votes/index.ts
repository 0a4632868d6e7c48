/** Routes: Votes on ideas. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { voteList } from '#lib/routes/votes/list';
import { voteCast } from '#lib/routes/votes/cast';
import { voteReview } from '#lib/routes/votes/review';

export const votesRoutes: Route[] = [voteList, voteCast, voteReview];
