/**
 * Realistic data for the hostile suite: a site with users of every role, ideas (one with arguments, a
 * reply, an argument vote and votes; one untouched), an article and a pending newsletter signup.
 * Written through the store functions the endpoints use (so items carry their index keys, tally
 * markers and versions exactly as real ones do) and the fixtures of tests/support; votes and the
 * signup go through their handlers, whose transactions are not worth copying here.
 */
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { castVotes } from '#tests/support/vote-fixtures';
import { sequenceSiteLog } from '#lib/jobs/sequence-log';
import { atWallClock } from '#tests/support/wall-clock';
import { invoke } from '#tests/support/invoke';
import type { ListEnvelope } from '#tests/support/bodies';
import type { SignupRecord } from '#schemas/newsletter';
import { newId } from '#lib/store/db/ids';
import { putNewIdea } from '#lib/store/ideas/ideas';
import { putNewArticle } from '#lib/store/articles/articles';
import { putNewArgument, toggleArgumentVoteOnce } from '#lib/store/arguments/arguments';
import type { ContentItem } from '#lib/store/content/content-items';
import type { ArgumentItem } from '#lib/arguments/record';
import type { SiteConfigInput } from '#schemas/site-config';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '#lib/store/db/client';
import { notificationPut } from '#lib/store/notifications/notifications';
import { putNewTag } from '#lib/store/tags/tags';
import { handler as createSignup } from '../../../functions/newsletter/create.ts';
import { handler as listSignups } from '../../../functions/newsletter/list.ts';

export const FRONTEND_HOST = 'frontend.example.org';

/** Features open, so a request is refused for what it sends, not because the feature is closed. */
export const hostileSiteConfig: SiteConfigInput = {
  allowedDomains: [FRONTEND_HOST],
  votes: { isActive: true, withExisting: 'replace' },
  newslettersignup: { isActive: true },
  ideas: { extraData: { theme: { type: 'enum', values: ['green', 'blue'] }, area: { type: 'int' } } },
  articles: { extraData: { theme: { type: 'enum', values: ['green', 'blue'] } } },
  // The suite sends hundreds of requests per door from one address; the limit has its own tests.
  ignoreBruteForce: ['127.0.0.1'],
};

export interface SiteWorld {
  siteId: number;
  /** Owns `ideaId` and `argumentId`, and has voted for `ideaId`. */
  member: TestUser;
  /** Owns `idea2Id` and `replyId`; has not voted (the baseline voter). */
  member2: TestUser;
  moderator: TestUser;
  admin: TestUser;
  ideaId: number;
  idea2Id: number;
  argumentId: number;
  replyId: number;
  articleId: number;
  signupEmail: string;
  /** The confirm token of a pending signup (as an admin's list shows it). */
  confirmToken: string;
  /** A pending notification in the site's outbox (lifecycle). */
  notificationId: number;
  /** Discovery: two tags (`tag2Id` is the one a baseline deletes). */
  tagId: number;
  tag2Id: number;
  /** The receipt of `member`'s ballot, in the site's first signed checkpoint of the vote log. */
  receipt: string;
  /** `member`'s vote on `ideaId` (counted: a baseline reinstating it writes nothing). */
  voteId: number;
}

async function newTag(siteId: number, name: string): Promise<number> {
  const id = newId();
  const now = new Date().toISOString();
  const outcome = await putNewTag({ id, siteId, name, group: null, createdAt: now, updatedAt: now, nameKey: { group: '', name } });
  if (outcome !== 'ok') throw new Error(`could not seed the tag: ${outcome}`);
  return id;
}

let seq = 0;

function ideaFields(n: string) {
  return {
    title: `A good idea ${n}`.padEnd(12, '.'),
    summary: `A summary of idea ${n} that is long enough`,
    description: `A description of idea ${n}. `.padEnd(160, 'x'),
  };
}

async function newContent(siteId: number, userId: number, kind: 'idea' | 'article'): Promise<number> {
  const id = newId();
  const now = new Date().toISOString();
  const item: ContentItem = {
    id,
    siteId,
    userId,
    ...ideaFields(String(id)),
    status: 'OPEN',
    budget: null,
    extraData: { theme: 'green' },
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const outcome = kind === 'idea' ? await putNewIdea(item) : await putNewArticle(item);
  if (outcome !== 'ok') throw new Error(`could not seed the ${kind}: ${outcome}`);
  return id;
}

async function newArgument(siteId: number, ideaId: number, userId: number, parentId: number | null): Promise<number> {
  const id = newId();
  const now = new Date().toISOString();
  const item: ArgumentItem = {
    id,
    siteId,
    ideaId,
    userId,
    parentId,
    sentiment: parentId === null ? 'for' : 'against',
    description: `Argument ${id}: a description that is long enough to pass the checks`,
    createdAt: now,
    updatedAt: now,
    yes: 0,
  };
  const outcome = await putNewArgument(item);
  if (outcome !== 'ok') throw new Error(`could not seed the argument: ${outcome}`);
  return id;
}

/**
 * A world whose vote is in no checkpoint yet: `sealVotes` puts it in one. Worlds built side by side
 * are sealed together, after all of them are built (the sealing run moves the process's wall clock).
 */
export async function buildUnsealedWorld(config: SiteConfigInput = hostileSiteConfig, name = 'Hostile site'): Promise<SiteWorld> {
  const site = await createSite(config, name);
  const siteId = site.id;
  const [member, member2, moderator, admin] = await Promise.all([
    createUser(siteId, 'member'),
    createUser(siteId, 'member'),
    createUser(siteId, 'moderator'),
    createUser(siteId, 'admin'),
  ]);
  const [ideaId, idea2Id, articleId] = await Promise.all([
    newContent(siteId, member.id, 'idea'),
    newContent(siteId, member2.id, 'idea'),
    newContent(siteId, moderator.id, 'article'),
  ]);
  const argumentId = await newArgument(siteId, ideaId, member.id, null);
  const replyId = await newArgument(siteId, ideaId, member2.id, argumentId);
  await toggleArgumentVoteOnce(siteId, ideaId, argumentId, member2.id, false);

  const voted = await castVotes(siteId, member.token, [{ ideaId, opinion: 'yes' }]);
  if (voted.status !== 200) throw new Error(`could not seed a vote: ${voted.status} ${JSON.stringify(voted.body)}`);
  const receipt = (voted.body as Array<{ receipt?: string }>)[0]?.receipt;
  const voteId = (voted.body as Array<{ id?: number }>)[0]?.id;
  if (!receipt || voteId === undefined) throw new Error('the seeded vote has no receipt or id');

  seq += 1;
  const signupEmail = `signup-${siteId}-${seq}@example.org`;
  const signup = await invoke(createSignup, { method: 'POST', params: { siteId }, body: { email: signupEmail, firstName: 'Sam' } });
  if (signup.status !== 201) throw new Error(`could not seed a signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const signups = await invoke<ListEnvelope<SignupRecord>>(listSignups, { params: { siteId }, token: SERVICE_TOKEN });
  const confirmToken = signups.body.records.find(
    (r) => r.email === signupEmail,
  )?.confirmToken;
  if (!confirmToken) throw new Error('the seeded signup has no confirm token');

  const notificationId = await newNotification(siteId);
  const tagId = await newTag(siteId, 'green');
  const tag2Id = await newTag(siteId, 'blue');

  return { siteId, member, member2, moderator, admin, ideaId, idea2Id, argumentId, replyId, articleId, signupEmail, confirmToken, notificationId, tagId, tag2Id, receipt, voteId };
}

/**
 * The vote-checkpoints job's run, its settle minute past, on each world's site: each world's vote is
 * in its site's first checkpoint. The run moves the process's wall clock (tests/support/wall-clock.ts),
 * which every request made meanwhile would read too (a vote cast then is stamped two minutes ahead and
 * missed by its own site's run): so worlds are sealed together, once nothing else is running.
 */
export async function sealVotes(worlds: readonly SiteWorld[]): Promise<void> {
  const at = new Date(Date.now() + 2 * 60_000);
  const outcomes = await atWallClock(at, () => Promise.all(worlds.map((world) => sequenceSiteLog(world.siteId, at))));
  outcomes.forEach((outcome, i) => {
    if (outcome.checkpointId === null || outcome.appended < 1) {
      throw new Error(`site ${worlds[i]!.siteId}: the world's vote is in no checkpoint: ${JSON.stringify(outcome)}`);
    }
  });
}

/** One world, its vote sealed. */
export async function buildSiteWorld(config: SiteConfigInput = hostileSiteConfig, name = 'Hostile site'): Promise<SiteWorld> {
  const world = await buildUnsealedWorld(config, name);
  await sealVotes([world]);
  return world;
}

/** A pending outbox record, as the lifecycle jobs write them. */
async function newNotification(siteId: number): Promise<number> {
  const id = newId();
  const now = new Date().toISOString();
  const put = notificationPut({ id, siteId, kind: 'project-ended', to: 'pm@example.org', subject: 'Ended', body: 'The project has ended.', status: 'pending', createdAt: now, sentAt: null });
  await doc.send(new PutCommand(put.Put!));
  return id;
}
