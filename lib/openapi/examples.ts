/**
 * One example per request body and per success answer, shown in the document and checked against
 * the schemas by `redocly lint` (tests/unit/openapi/lint.test.ts, rule no-invalid-media-type-examples).
 */
import type { InputComponent } from '#lib/openapi/components';
import type { OutputComponent } from '#lib/routes/outputs';

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
  SitePatchBody: { config: { allowedDomains: ['east.example.org', 'app.east.example.org'] } },
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
  ReviewVoteBody: { rejected: true },
  CreateUserBody: { email: 'pat@example.org', firstName: 'Pat', lastName: 'Jansen', role: 'member' },
  UpdateUserBody: { firstName: 'Patricia' },
  NewsletterSignupBody: { email: 'reader@example.org', firstName: 'Rea' },
  ConfirmBody: { confirmToken: 'm3Vq9pXb2Lr7TzKc' },
};

// Success answers: one consistent small world (site 3, user 7, ideas 12 and 15, tag 4).
const at = '2026-05-04T09:30:00.000Z';
const later = '2026-05-06T14:12:00.000Z';
const list = (records: unknown[], nextCursor: string | null = null) => ({ records, metadata: { pageSize: 100, nextCursor } });

const site = {
  id: 3,
  name: 'east-district',
  title: 'East district budget',
  domain: 'east.example.org',
  config: { allowedDomains: ['east.example.org'], votes: { isActive: true, voteType: 'likes', isViewable: true }, ideas: { canAddNewIdeas: true } },
  createdAt: at,
  updatedAt: at,
};
const author = { id: 7, role: 'member', displayName: 'Pat J.', nickName: null };
const ideaRecord = {
  id: 12,
  siteId: 3,
  userId: 7,
  ...idea,
  status: 'OPEN',
  budget: null,
  createdAt: at,
  updatedAt: at,
  tags: [4],
  location: { lat: 52.3702, lng: 4.8952 },
  publishDate: at,
  can: { edit: true, delete: true },
};
const article = {
  id: 2,
  siteId: 3,
  userId: 1,
  title: 'The idea round is open',
  summary: 'Until the end of next month anyone can submit ideas and vote.',
  description:
    'The city sets aside a budget for the east district this year, and residents decide what it is spent on. Submit your idea, read the ideas of others and like the ones you want to see happen.',
  status: 'OPEN',
  budget: null,
  extraData: {},
  createdAt: at,
  updatedAt: at,
};
const argument = { id: 31, siteId: 3, ideaId: 12, userId: 7, parentId: null, sentiment: 'for', description: 'I walk there every day: from June on the path is too hot.', createdAt: later, updatedAt: later };
const vote = { id: 101, ideaId: 12, userId: 7, opinion: 'yes', createdAt: later };
const user = {
  id: 7,
  siteId: 3,
  role: 'member',
  email: 'pat@example.org',
  firstName: 'Pat',
  lastName: 'Jansen',
  nickName: null,
  displayName: 'Pat J.',
  extraData: {},
  listableByRole: null,
  detailsViewableByRole: null,
  gender: null,
  signedUpForNewsletter: false,
  createdAt: at,
  updatedAt: at,
};
const signup = { id: 5, siteId: 3, email: 'reader@example.org', firstName: 'Rea', lastName: null, confirmed: false, createdAt: at };
const notification = {
  id: 1,
  siteId: 3,
  kind: 'project-ended',
  to: 'admin@east.example.org',
  subject: 'The project East district budget has ended',
  body: 'The project has ended; its users will be anonymized in 60 days.',
  status: 'pending',
  createdAt: later,
  sentAt: null,
};
const tag = { id: 4, siteId: 3, name: 'Green', group: 'theme', createdAt: at, updatedAt: at };
const siteSummary = { id: 3, name: 'east-district', title: 'East district budget' };
const activity = { ideas: [ideaRecord], articles: [], arguments: [argument], votes: [{ ...vote, siteId: 3 }], sites: [siteSummary] };
const signedCheckpoint = {
  id: 2,
  treeSize: 61,
  root: '5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef',
  cut: '2026-05-06T15:00:00.000Z',
  ballots: 48,
  signature: 'kZ3mL0q9V1c2xYt8bWfPjR7oN4uE6aHsD5gK0iQ2vM9nB3cX7zL1pF8wT4yU6rS0eA2dG5hJ9kN1mO3qR7tV0w==',
  keyId: '9c1e4f0a7b3d2e58',
};
const checkpoint = { ...signedCheckpoint, siteId: 3, createdAt: later };
const receipt = '3b0e6a1f9c2d4e5b8a7f6c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f';

/**
 * One example per answer a route can give (tests/unit/openapi/document.test.ts fails on a success
 * answer without one); `redocly lint` checks each against its schema.
 */
export const RESPONSE_EXAMPLES: Record<OutputComponent, unknown> = {
  Error: { status: 404, error: 'NotFound', message: 'Idea 12 not found on site 3' },
  Health: { status: 'ok' },
  Deleted: { id: 12, deleted: true },
  SiteConfigRead: site.config,
  Site: site,
  SiteList: list([site]),
  SiteSummary: siteSummary,
  Idea: { ...ideaRecord, yes: 14, no: 0, user: author, userVote: { opinion: 'yes' }, posterImage: null },
  IdeaList: list([ideaRecord], 'eyJpZCI6MTJ9'),
  Article: article,
  ArticleList: list([article]),
  Argument: { ...argument, yes: 3, hasUserVoted: false },
  ArgumentList: list([argument]),
  Vote: vote,
  VoteList: list([vote]),
  VoteRound: [vote, { id: 102, ideaId: 15, userId: 7, opinion: 'yes', createdAt: later }],
  User: user,
  PublicUser: author,
  UserList: list([user]),
  Activity: activity,
  AnonymizeReport: { ...activity, users: [user] },
  NewsletterSignup: signup,
  Notification: notification,
  NotificationList: list([notification]),
  NewsletterSignupList: list([{ ...signup, confirmToken: 'm3Vq9pXb2Lr7TzKc' }]),
  Tag: tag,
  TagList: list([tag, { ...tag, id: 5, name: 'Traffic' }]),
  IdeaMarker: { id: 12, title: ideaRecord.title, status: 'OPEN', location: ideaRecord.location, tags: [4] },
  IdeaMarkerList: list([{ id: 12, title: ideaRecord.title, status: 'OPEN', location: ideaRecord.location, tags: [4] }]),
  Results: {
    voteType: 'budgeting',
    computedAt: later,
    ballots: 48,
    ideas: [
      { id: 12, title: ideaRecord.title, yes: 30, no: 0, rank: 1 },
      { id: 15, title: 'A drinking fountain on the square', yes: 21, no: 0, rank: 2 },
    ],
    winners: { greedy: { ideaIds: [12], spent: 40000 }, equalShares: { ideaIds: [12, 15], spent: 48500 } },
  },
  VoteCheckpoint: checkpoint,
  SignedCheckpoint: signedCheckpoint,
  VoteReceipt: {
    receipt,
    checkpoint: signedCheckpoint,
    leafIndex: 37,
    proof: ['9a0c3f2e1d4b5a6978c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2', '4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f'],
  },
  VoteRecordKey: {
    keyId: '9c1e4f0a7b3d2e58',
    algorithm: 'Ed25519',
    publicKey: 'GQbT5fcOWmS7BmW4yFmK9R3cQ1oXDhJ6vA8tP2nL4uE=',
    jwk: { kty: 'OKP', crv: 'Ed25519', x: 'GQbT5fcOWmS7BmW4yFmK9R3cQ1oXDhJ6vA8tP2nL4uE', kid: '9c1e4f0a7b3d2e58' },
    keys: [
      {
        keyId: '9c1e4f0a7b3d2e58',
        algorithm: 'Ed25519',
        publicKey: 'GQbT5fcOWmS7BmW4yFmK9R3cQ1oXDhJ6vA8tP2nL4uE=',
        jwk: { kty: 'OKP', crv: 'Ed25519', x: 'GQbT5fcOWmS7BmW4yFmK9R3cQ1oXDhJ6vA8tP2nL4uE', kid: '9c1e4f0a7b3d2e58' },
        status: 'current',
      },
      {
        keyId: '41d07c2be95f6a13',
        algorithm: 'Ed25519',
        publicKey: 'sN3vQk8cY1uZ0pW5dR7fJ2hL6aT9eX4mB0oC3gK8iUE=',
        jwk: { kty: 'OKP', crv: 'Ed25519', x: 'sN3vQk8cY1uZ0pW5dR7fJ2hL6aT9eX4mB0oC3gK8iUE', kid: '41d07c2be95f6a13' },
        status: 'retired',
        retiredAt: '2026-03-01T09:05:00.000Z',
      },
    ],
  },
  ConsistencyProof: { from: 42, to: 61, proof: ['4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f'] },
  VoteCheckpointList: list([checkpoint]),
  UserExport: { users: [user], ideas: [ideaRecord], articles: [], arguments: [argument], votes: [{ ...vote, siteId: 3 }], newsletterSignups: [] },
};

/** The answers that are not JSON records, by media type. */
export const TEXT_EXAMPLES = {
  Csv: 'id,title,status,budget,theme,yes,no,createdAt\r\n12,Shade trees along the river path,OPEN,40000,green,30,0,2026-05-04T09:30:00.000Z\r\n',
  VotesCsv: 'id,userId,ideaId,opinion,createdAt\r\n101,7,12,yes,2026-05-06T14:12:00.000Z\r\n',
  Pabulib:
    'META\nkey;value\ndescription;East district budget\ncountry;\nunit;east-district\ninstance;3\nnum_projects;2\nnum_votes;1\nbudget;50000\nvote_type;approval\nrule;unknown\ndate_begin;04.05.2026\ndate_end;06.05.2026\nmin_length;1\nmax_length;2\nvote_type_api;budgeting\n' +
    'PROJECTS\nproject_id;cost;votes;name\n12;40000;1;Shade trees along the river path\n15;8500;0;A drinking fountain on the square\nVOTES\nvoter_id;vote\na3f09c1d52e87b40;12\n',
  Html: '<!doctype html><html lang="en"><head><title>Participation API</title></head><body>...</body></html>',
  Script: "'use strict';\nwindow.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs' });\n",
  Style: 'body { margin: 0; }\n',
};
