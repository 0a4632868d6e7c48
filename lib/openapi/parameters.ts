/**
 * What each path and query parameter means (CONTRACT "Requests" and "Records"). Kept by name because
 * the same parameter appears on many routes; the schema of each comes from the route's zod object.
 * `<in>.<name>` overrides `<name>` where a query parameter means something else than the path one.
 */
const id = (what: string) => `The ${what} id: a positive integer in plain decimal digits.`;
const flag = (what: string) => `\`1\`/\`true\` ${what}; \`0\`/\`false\` or absent: off.`;

export const PARAMETER_DOCS: Record<string, string> = {
  siteId: id('site'),
  ideaId: id('idea'),
  articleId: id('article'),
  argumentId: id('argument'),
  userId: id('user'),
  pageSize: 'Records per page, 1..500 (default 100). A page may hold fewer; only `nextCursor: null` means the end.',
  cursor: 'The `nextCursor` of the previous page: opaque and sealed, valid only for the same site, list, sort and filters (`pageSize` and include flags may change); anything else is a 400.',
  sort: 'Order: `createdate_desc` (default), `createdate_asc`; ideas also `votes_desc`, `votes_asc` (only for callers who see the vote counts, else 403), and `distance` (nearest first; only with `near`).',
  selectRunning: flag('keeps ideas with status OPEN, CLOSED, ACCEPTED and BUSY'),
  includeVoteCount: flag('adds `yes` and `no` (when `votes.isViewable`, or for moderators and above)'),
  includeUserVote: flag("adds `userVote`: the caller's vote on the idea, or null"),
  includeUser: flag('adds `user`: `{id, role, displayName, nickName}`'),
  includeArguments: flag('adds `argumentsFor` and `argumentsAgainst`'),
  includePosterImage: flag('adds `posterImage`: `{url}` of the first of `extraData.images`, or null'),
  withVoteCount: flag('adds `yes`: the number of votes on each argument'),
  withUserVote: flag('adds `hasUserVoted`'),
  sentiment: 'Only arguments with this sentiment (`for` or `against`).',
  opinion: 'Only votes with this opinion.',
  // Query parameters that share a name with a path parameter: looked up as `query.<name>` first.
  'query.ideaId': 'Only votes on this idea.',
  'query.userId': 'Only votes of this user (moderators and above; 401 without a token).',
  confirmed: '`1`/`true`: only confirmed signups; `0`/`false`: only unconfirmed; absent: all.',
  includeOtherSites: '`1`/`true` (default): also the same auth-server user on other sites; `0`/`false`: this site only.',
  includeIdeas: "The user's ideas. When none of includeIdeas, includeArticles, includeArguments, includeVotes is given, all are on.",
  includeArticles: "The user's articles (see includeIdeas).",
  includeVotes: "The user's votes (see includeIdeas).",
  // Discovery filters; combined with AND, each a 400 when malformed.
  tagId: id('tag'),
  tags: 'Ideas with any of these tags: tag ids separated by commas (at most 20).',
  status: 'Ideas with one of these statuses, separated by commas (`OPEN,ACCEPTED`).',
  search: 'Words (at most 8, 200 characters); each must match the start of a word of the title, summary or description, case- and accent-insensitively (`cafe` finds `café`).',
  bbox: 'Ideas located in the box `minLat,minLng,maxLat,maxLng` (WGS84 degrees; the minimum not above the maximum).',
  near: 'Ideas within `radius` metres of `lat,lng` (needs `radius`; `sort=distance` orders by it).',
  radius: 'Metres around `near`, 1..50000 (needs `near`).',
  redirectUrl:
    "Where the browser goes afterwards: an absolute `https` URL (plain `http` on a local stack only) without credentials, one of the site's `allowedDomains` frontends: its host listed, and its port too when the entry names one (`localhost:5173`).",
  useOauth: 'The `config.oauth` entry to use (default `default`).',
  code: 'The authorization code from the auth server.',
  state: 'The signed state the login sent to the auth server.',
  error: 'Set by the auth server when the login was cancelled or failed (RFC 6749 4.1.2.1).',
};
