/**
 * Hostile input on the OpenStad surface (tests/support/hostile/openstad-routes.ts): each main route's
 * twin under `/openstad`, in the groups of the main route's own hostile file (so each group's
 * baselines run against a world in the state the main file's leave it in), and the stats routes.
 * The login doors' twins need the auth server of tests/integration/hostile/oauth.test.ts: the
 * malformed-text suite covers them, tests/integration/openstad/attacks.test.ts asks them as an attacker.
 */
import { describe } from 'vitest';
import { hostileSuite } from '#tests/support/hostile/suite';
import { OPENSTAD_FUNCTION } from '#tests/support/hostile/openstad-routes';
import { routes } from '#tests/support/hostile/routes';

const GROUPS: Record<string, string[]> = {
  sites: ['siteList', 'siteCreate', 'siteGet', 'siteUpdate', 'sitePatch', 'siteDelete'],
  ideas: ['ideaList', 'ideaCreate', 'ideaGet', 'ideaUpdate', 'ideaDelete'],
  discovery: ['ideaMarkerList', 'tagList', 'tagCreate', 'tagUpdate', 'tagDelete'],
  arguments: ['argumentListSite', 'argumentList', 'argumentCreate', 'argumentGet', 'argumentUpdate', 'argumentDelete', 'argumentVote'],
  articles: ['articleList', 'articleCreate', 'articleGet', 'articleUpdate', 'articleDelete'],
  newsletter: ['newsletterSignupList', 'newsletterSignupCreate', 'newsletterConfirm'],
  notifications: ['notificationList', 'notificationSent'],
  votes: ['voteList', 'voteCast'],
  results: ['resultsGet', 'resultsCompute', 'exportVotes', 'exportIdeas', 'voteCheckpointList', 'voteReceiptGet', 'voteRecordCheckpoint', 'voteRecordConsistency', 'userExport'],
  users: ['userList', 'userCreate', 'userGet', 'userUpdate', 'userDelete', 'oauthMe'],
  activity: ['userActivity', 'userWillAnonymize', 'userWillAnonymizeAll', 'userDoAnonymize', 'userDoAnonymizeAll'],
};
const NEEDS_AUTH_SERVER = ['oauthLogin', 'oauthDigestLogin', 'oauthLogout'];

const twins = routes.filter((route) => route.name === OPENSTAD_FUNCTION);
const twinOf = (main: string) => `${OPENSTAD_FUNCTION} ${main}`;
for (const [group, names] of Object.entries(GROUPS)) {
  describe(group, () => {
    hostileSuite(names.map(twinOf).filter((key) => twins.some((route) => route.key === key)));
  });
}
describe('stats and the twins of main routes in no group above', () => {
  const grouped = new Set([...Object.values(GROUPS).flat(), ...NEEDS_AUTH_SERVER].map(twinOf));
  hostileSuite(twins.map((route) => route.key!).filter((key) => !grouped.has(key)));
});
