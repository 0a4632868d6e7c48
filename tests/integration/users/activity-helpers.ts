/**
 * Shared by the activity and anonymization tests: people on the local auth server (scripts/auth-server,
 * over real HTTP) logged in on several sites, each with an idea, an article, an argument, votes and a
 * newsletter signup, written the way the features write them (ideas with their tally marker, arguments,
 * votes and signups through their handlers).
 */
import { expect } from 'vitest';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import { newId } from '#lib/store/db/ids';
import { invoke } from '#tests/support/invoke';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { castVotes, createIdea } from '#tests/support/vote-fixtures';
import type { SiteConfigInput } from '#schemas/site-config';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as createSignup } from '../../../functions/newsletter/create.ts';
import { handler as activityHandler } from '../../../functions/users/activity.ts';
import { handler as willAnonymizeHandler } from '../../../functions/users/will-anonymize.ts';
import { handler as willAnonymizeAllHandler } from '../../../functions/users/will-anonymize-all.ts';
import { handler as doAnonymizeHandler } from '../../../functions/users/do-anonymize.ts';
import { handler as doAnonymizeAllHandler } from '../../../functions/users/do-anonymize-all.ts';
import { getSite, updateSite } from '#lib/store/sites/sites';
import { createLoginSite, loginUser } from '../oauth/login-helpers.ts';
import type { ArgumentRecordShape } from '#schemas/argument';
import type { SignupRecord } from '#schemas/newsletter';
import type { ActivityResponse, AnonymizationResponse } from '#schemas/user-activity';

const LONG_ARGUMENT = 'This argument is long enough to pass the default minimum length.';

let seq = 0;

/** A fresh auth-server person (unique e-mail). */
export function person(auth: RunningAuthServer, name = 'Pat') {
  seq += 1;
  return auth.control.addUser({ email: `${name.toLowerCase()}${seq}-${Date.now()}@example.org`, firstName: name, lastName: `Person ${seq}` });
}

/** A site logging in through `auth`, with voting open (likes) and the newsletter on. */
export function activitySite(auth: RunningAuthServer, config: SiteConfigInput = {}) {
  return createLoginSite(auth, { votes: { isActive: true }, newslettersignup: { isActive: true }, ...config });
}

export async function createArticle(siteId: number, userId: number): Promise<number> {
  const id = newId();
  const now = new Date().toISOString();
  await doc.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...contentKeys.article(siteId, id),
        ...userKeys.ownedBy(userId, 'ARTICLE', id),
        id,
        siteId,
        userId,
        title: `Article number ${id}`,
        summary: 'A summary that is long enough',
        description: 'An article text. '.repeat(12),
        status: 'OPEN',
        budget: null,
        extraData: {},
        createdAt: now,
        updatedAt: now,
        version: 1,
      },
    }),
  );
  return id;
}

async function postArgument(siteId: number, ideaId: number, token: string): Promise<number> {
  const res = await invoke<ArgumentRecordShape>(createArgument, { method: 'POST', params: { siteId, ideaId }, token, body: { description: LONG_ARGUMENT } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function signUp(siteId: number, token: string, email: string): Promise<number> {
  const res = await invoke<SignupRecord>(createSignup, { method: 'POST', params: { siteId }, token, body: { email } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

export async function vote(siteId: number, token: string, round: { ideaId: number; opinion: string }[]) {
  const res = await castVotes(siteId, token, round);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export interface SiteUser {
  siteId: number;
  id: number;
  token: string;
}

export interface Contribution {
  user: SiteUser;
  ideaId: number;
  articleId: number;
  argumentId: number;
  signupId: number;
}

/** Logs `email` in on the site and writes one of each: idea, article, argument (on the idea), signup. */
export async function contribute(siteId: number, email: string): Promise<Contribution> {
  const login = await loginUser(siteId, email);
  const user = { siteId, ...login };
  const { id: ideaId } = await createIdea(siteId, { userId: user.id });
  const [articleId, argumentId, signupId] = await Promise.all([
    createArticle(siteId, user.id),
    postArgument(siteId, ideaId, user.token),
    signUp(siteId, user.token, `letters-${user.id}@example.org`),
  ]);
  return { user, ideaId, articleId, argumentId, signupId };
}

/** `token` null: no token at all. */
export function activity(siteId: number, userId: number, token: string | null = SERVICE_TOKEN, query: Record<string, string> = {}) {
  return invoke<ActivityResponse>(activityHandler, { params: { siteId, userId }, query, ...(token ? { token } : {}) });
}

const anonymizeHandlers = {
  'will-anonymize': willAnonymizeHandler,
  'will-anonymizeall': willAnonymizeAllHandler,
  'do-anonymize': doAnonymizeHandler,
  'do-anonymizeall': doAnonymizeAllHandler,
};
type AnonymizePath = keyof typeof anonymizeHandlers;

/** One of the four anonymization paths; PUT unless said otherwise; `token` null: no token. */
export function anonymize(path: AnonymizePath, siteId: number, userId: number, token: string | null = SERVICE_TOKEN, method = 'PUT') {
  return invoke<AnonymizationResponse>(anonymizeHandlers[path], { method, params: { siteId, userId }, ...(token ? { token } : {}) });
}

/** Opens or closes voting on a site, keeping the rest of its config. */
export async function setVoting(siteId: number, isActive: boolean) {
  const site = (await getSite(siteId))!;
  await updateSite(siteId, { config: { ...site.config, votes: { ...site.config.votes, isActive } }, updatedAt: new Date().toISOString() });
}

/** Every item of a site partition (consistent), to prove that a call changed nothing. */
export async function sitePartition(siteId: number): Promise<Record<string, unknown>[]> {
  const out = await doc.send(
    new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': sitePk(siteId) }, ConsistentRead: true }),
  );
  return out.Items ?? [];
}

/** The items of one site user in its site's partition: the user item and what carries its id. */
export async function itemsOf(siteId: number, userId: number): Promise<Record<string, unknown>[]> {
  const items = await sitePartition(siteId);
  return items.filter((i) => i.userId === userId || i.SK === userKeys.user(siteId, userId).SK);
}
