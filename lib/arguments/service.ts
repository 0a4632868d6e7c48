/**
 * The argument endpoints: lists (an idea's, a site's), one argument, create, partial update, delete
 * (with its replies) and the vote toggle. Access comes from lib/auth/access.ts; storage from
 * lib/store/arguments/arguments.ts. Every call costs a fixed number of DynamoDB requests (no per-record reads).
 */
import { conflict, forbidden, notFound, validationError } from '#lib/errors';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { hasRole } from '#lib/auth/roles';
import type { Site } from '#lib/sites/site';
import { toArgumentRecord, type ArgumentItem, type ArgumentRecord } from '#lib/arguments/record';
import { assertDescriptionLength, assertReplyParent } from '#lib/arguments/rules';
import { toArgumentRecords } from '#lib/arguments/includes';
import * as store from '#lib/store/arguments/arguments';
import { withNewId } from '#lib/store/db/ids';
import { getUser } from '#lib/store/users/users';
import type { ArgumentFlags, ArgumentListQuery, CreateArgumentBody, UpdateArgumentBody } from '#schemas/argument';
import { REPLAN, withReplan } from '#lib/store/db/replan';

interface ArgumentPage {
  records: ArgumentRecord[];
  nextCursor: string | null;
}

const ideaNotFound = (siteId: number, ideaId: number) => notFound(`Idea ${ideaId} not found on site ${siteId}`);
const argumentNotFound = (ideaId: number, argumentId: number) =>
  notFound(`Argument ${argumentId} not found on idea ${ideaId}`);

async function requireIdea(siteId: number, ideaId: number): Promise<store.IdeaRef> {
  const idea = await store.getIdeaRef(siteId, ideaId);
  if (!idea) throw ideaNotFound(siteId, ideaId);
  return idea;
}

/** The idea check and the argument read go out together (independent GetItems). */
async function requireArgument(siteId: number, ideaId: number, argumentId: number): Promise<ArgumentItem> {
  const [idea, argument] = await Promise.all([
    store.getIdeaRef(siteId, ideaId),
    store.getArgument(siteId, ideaId, argumentId),
  ]);
  if (!idea) throw ideaNotFound(siteId, ideaId);
  if (!argument) throw argumentNotFound(ideaId, argumentId);
  return argument;
}

/** An id inside a body that points nowhere is a 400 (CONTRACT); a user of another site is nowhere. */
async function assertAuthorExists(siteId: number, userId: number | undefined): Promise<void> {
  if (userId === undefined) return;
  if (!(await getUser(siteId, userId))) {
    throw validationError([{ path: 'userId', message: `user ${userId} does not exist on this site` }], 'Invalid body');
  }
}

/** Moderators act on anyone's argument; an owner's write is conditioned on still being the owner. */
const ownerGuard = (caller: Caller) => ({
  ownerId: hasRole(caller.role, 'moderator') || caller.kind !== 'user' ? undefined : caller.userId,
});

export async function listIdeaArguments(site: Site, caller: Caller, ideaId: number, query: ArgumentListQuery): Promise<ArgumentPage> {
  // The idea check and the page are independent: one round trip instead of two.
  const [idea, page] = await Promise.all([
    store.getIdeaRef(site.id, ideaId),
    store.listArgumentsOfIdea(site.id, ideaId, query, { sentiment: query.sentiment }),
  ]);
  if (!idea) throw ideaNotFound(site.id, ideaId);
  return { records: await toArgumentRecords(site, caller, page.items, query, ideaId), nextCursor: page.nextCursor };
}

export async function listSiteArguments(site: Site, caller: Caller, query: ArgumentListQuery): Promise<ArgumentPage> {
  const page = await store.listArgumentsOfSite(site.id, query, { sentiment: query.sentiment });
  return { records: await toArgumentRecords(site, caller, page.items, query), nextCursor: page.nextCursor };
}

export async function getArgument(
  site: Site,
  caller: Caller,
  ideaId: number,
  argumentId: number,
  flags: ArgumentFlags,
): Promise<ArgumentRecord> {
  const [record] = await toArgumentRecords(site, caller, [await requireArgument(site.id, ideaId, argumentId)], flags);
  return record!;
}

export async function createArgument(site: Site, caller: Caller, ideaId: number, body: CreateArgumentBody): Promise<ArgumentRecord> {
  access.argument.create(caller, site.config);
  access.assertModeratorFields(caller, body, ['userId']);
  assertDescriptionLength(body.description, site.config);
  const parentId = body.parentId ?? null;
  const [idea, parent] = await Promise.all([
    store.getIdeaRef(site.id, ideaId),
    parentId !== null ? store.getArgument(site.id, ideaId, parentId) : undefined,
    assertAuthorExists(site.id, body.userId),
  ]);
  if (!idea) throw ideaNotFound(site.id, ideaId);
  if (parentId !== null) assertReplyParent(parentId, ideaId, parent);

  const now = new Date().toISOString();
  const make = (id: number): ArgumentItem => ({
    id,
    siteId: site.id,
    ideaId,
    userId: body.userId ?? (caller.kind === 'user' ? caller.userId : null),
    parentId,
    sentiment: body.sentiment ?? 'for',
    description: body.description,
    createdAt: now,
    updatedAt: now,
    yes: 0,
  });
  const { item, outcome } = await withNewId(async (id) => {
    const item = make(id);
    return { item, outcome: await store.putNewArgument(item) };
  });
  // Deleted between our read and the write: the transaction's checks caught it.
  if (outcome === 'idea-missing') throw ideaNotFound(site.id, ideaId);
  if (outcome === 'parent-missing') assertReplyParent(parentId!, ideaId, undefined);
  return toArgumentRecord(item);
}

export async function updateArgument(
  site: Site,
  caller: Caller,
  ideaId: number,
  argumentId: number,
  body: UpdateArgumentBody,
): Promise<ArgumentRecord> {
  const existing = await requireArgument(site.id, ideaId, argumentId);
  access.argument.modify(caller, existing, site.config);
  access.assertModeratorFields(caller, body, ['userId']);
  if (body.description !== undefined) assertDescriptionLength(body.description, site.config);
  await assertAuthorExists(site.id, body.userId);

  const outcome = await store.updateArgument(
    site.id,
    ideaId,
    argumentId,
    { description: body.description, sentiment: body.sentiment, userId: body.userId, updatedAt: new Date().toISOString() },
    ownerGuard(caller),
  );
  if (!outcome.ok) {
    if (outcome.reason === 'missing') throw argumentNotFound(ideaId, argumentId);
    throw forbidden('Only the owner or a moderator may change this argument');
  }
  return toArgumentRecord(outcome.value);
}

/** Deletes the argument and, for a top-level argument, its replies. */
export async function deleteArgument(site: Site, caller: Caller, ideaId: number, argumentId: number): Promise<void> {
  const existing = await requireArgument(site.id, ideaId, argumentId);
  access.argument.modify(caller, existing, site.config);
  const outcome = await store.deleteArgument(site.id, ideaId, argumentId, ownerGuard(caller));
  if (!outcome.ok) {
    if (outcome.reason === 'missing') throw argumentNotFound(ideaId, argumentId);
    throw forbidden('Only the owner or a moderator may delete this argument');
  }
  if (existing.parentId == null) await store.deleteReplies(site.id, ideaId, argumentId);
}

/** Toggles the caller's vote; answers the argument with `yes` and `hasUserVoted`. */
export async function toggleArgumentVote(site: Site, caller: Caller, ideaId: number, argumentId: number): Promise<ArgumentRecord> {
  access.argument.vote(caller, site.config);
  // A vote belongs to a user: a service token acts as admin but has no user to count.
  if (caller.kind !== 'user') throw forbidden('Argument votes are cast by users; a service token cannot vote');
  await requireIdea(site.id, ideaId);
  const userId = caller.userId;
  let hasVoted = false; // unknown at first: try adding, the condition corrects us
  const item = await withReplan(
    async () => {
      const toggled = await store.toggleArgumentVoteOnce(site.id, ideaId, argumentId, userId, hasVoted);
      if (toggled.kind === 'missing') throw argumentNotFound(ideaId, argumentId);
      if (toggled.kind === 'done') return toggled.item;
      hasVoted = toggled.hasVoted;
      return REPLAN;
    },
    () => conflict('The vote changed too often at once; please try again'),
  );
  return toArgumentRecord(item, { withVoteCount: true, withUserVoteOf: userId });
}
