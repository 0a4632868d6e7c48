/** The document's tags, in the order the docs page shows them; every route names one (lib/routes/route.ts). */
export const TAGS = {
  Sites: 'Sites and their configuration.',
  Ideas: 'Ideas of a site, with include flags for votes, arguments, user and poster image, filters and map markers.',
  Tags: 'Tags of a site, which ideas carry; the idea list filters by them.',
  Articles: 'Articles (blog or news items) of a site: ideas without votes and arguments.',
  Arguments: 'Arguments for and against ideas, and votes on arguments.',
  Votes: 'Votes on ideas: likes, count, budgeting and their per-theme forms.',
  Results: 'Results, exports and the verifiable vote record (docs/results.md).',
  Users: 'Users of a site (a cache of the auth server), their activity and anonymization.',
  Newsletter: 'Newsletter signups and their confirmation.',
  Notifications: 'The outbox of a site: what the service would mail, for an external mailer (lifecycle).',
  Login: 'Login per site through the OAuth 2.0 auth server; the API issues the JWT.',
  System: 'This documentation and the health check.',
} as const;
export type Tag = keyof typeof TAGS;
