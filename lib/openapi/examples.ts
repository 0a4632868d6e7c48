/**
 * One example per request body (and for the small answers), shown in the document and checked against
 * the schemas by `redocly lint` (tests/unit/openapi/lint.test.ts, rule no-invalid-media-type-examples).
 */
import type { InputComponent, OutputComponent } from '#lib/openapi/components';

const idea = {
  title: 'Shade trees along the river path',
  summary: 'Plant a row of lime trees between the bridge and the lock.',
  description:
    'The river path is the busiest walking and cycling route in the district, but between the bridge and the lock there is no shade at all. A row of lime trees would give shade within a few years.',
  extraData: { theme: 'green' },
};

/** Every component a route takes as its body has one (tests/unit/openapi/document.test.ts). */
export const BODY_EXAMPLES: Partial<Record<InputComponent, unknown>> = {
  CreateSiteBody: { name: 'east-district', title: 'East district budget', domain: 'east.example.org', config: { allowedDomains: ['east.example.org'], votes: { isActive: true, voteType: 'likes' } } },
  UpdateSiteBody: { title: 'East district budget 2027' },
  CreateIdeaBody: idea,
  UpdateIdeaBody: { summary: 'Plant lime trees between the bridge and the lock, and two benches.' },
  CreateArticleBody: {
    title: 'The idea round is open',
    summary: 'Until the end of next month anyone can submit ideas and vote.',
    description:
      'The city sets aside a budget for the east district this year, and residents decide what it is spent on. Submit your idea, read the ideas of others and like the ones you want to see happen.',
  },
  UpdateArticleBody: { title: 'The idea round is open until June' },
  CreateTagBody: { name: 'Green', group: 'theme' },
  UpdateTagBody: { name: 'Greenery' },
  CreateArgumentBody: { description: 'I walk there every day: from June on the path is too hot.', sentiment: 'for' },
  UpdateArgumentBody: { description: 'I walk there every day: from May on the path is too hot.' },
  VoteInput: { ideaId: 12, opinion: 'yes' },
  VoteRoundBody: [
    { ideaId: 12, opinion: 'yes' },
    { ideaId: 15, opinion: 'yes' },
  ],
  CreateUserBody: { email: 'pat@example.org', firstName: 'Pat', lastName: 'Jansen', role: 'member' },
  UpdateUserBody: { firstName: 'Patricia' },
  NewsletterSignupBody: { email: 'reader@example.org', firstName: 'Rea' },
  ConfirmBody: { confirmToken: 'm3Vq9pXb2Lr7TzKc' },
};

export const RESPONSE_EXAMPLES: Partial<Record<OutputComponent, unknown>> = {
  Health: { status: 'ok' },
  Deleted: { id: 12, deleted: true },
};
