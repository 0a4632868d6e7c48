/**
 * Argument records with what reads add: `can` (what the caller's update, delete and reply would be
 * answered: the access rules those writes call), `user` with `withUser` (the page's authors in one
 * BatchGet), and with `includeReactionsOnReactions` the replies nested under their top-level argument
 * (`reactions`, one range Query for the page: lib/store/arguments.ts repliesOf). No read per record.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import { toArgumentRecord, type ArgumentItem, type ArgumentRecord } from '#lib/arguments/record';
import { repliesOf } from '#lib/store/arguments/arguments';
import { getUsers } from '#lib/store/content/content-items';
import { publicUserView } from '#lib/users/public-view';

interface ArgumentReadFlags {
  withVoteCount?: boolean | undefined;
  withUserVote?: boolean | undefined;
  withUser?: boolean | undefined;
  includeReactionsOnReactions?: boolean | undefined;
}

const allowed = (rule: () => void): boolean => {
  try {
    rule();
    return true;
  } catch {
    return false;
  }
};

/** The rules of PUT / DELETE (`argument.modify`) and of a reply's POST (`argument.create`, top-level parents only). */
function argumentCan(caller: Caller, site: Site, item: Pick<ArgumentItem, 'userId' | 'parentId'>) {
  const modify = allowed(() => access.argument.modify(caller, item, site.config));
  return { edit: modify, delete: modify, reply: item.parentId == null && allowed(() => access.argument.create(caller, site.config)) };
}

/** @param ideaId the idea whose list this is: replies are nested only there. */
export async function toArgumentRecords(
  site: Site,
  caller: Caller,
  items: readonly ArgumentItem[],
  flags: ArgumentReadFlags,
  ideaId?: number,
): Promise<ArgumentRecord[]> {
  const nest = flags.includeReactionsOnReactions === true && ideaId !== undefined;
  const top = nest ? items.filter((item) => item.parentId == null) : [...items];
  const replies = nest ? await repliesOf(site.id, ideaId, top.map((item) => item.id)) : [];
  const authorIds = flags.withUser ? [...new Set([...top, ...replies].flatMap((item) => (item.userId != null ? [item.userId] : [])))] : [];
  const users = authorIds.length > 0 ? await getUsers(site.id, authorIds) : new Map();
  const options = {
    withVoteCount: flags.withVoteCount,
    // `withUserVote` without a token answers `hasUserVoted: false` rather than refusing: reads are public.
    withUserVoteOf: flags.withUserVote ? (caller.kind === 'user' ? caller.userId : null) : undefined,
  };
  const one = (item: ArgumentItem): ArgumentRecord => {
    const record = toArgumentRecord(item, options);
    if (flags.withUser) {
      const user = item.userId != null ? users.get(item.userId) : undefined;
      record.user = user ? publicUserView(user, site.config) : null;
    }
    record.can = argumentCan(caller, site, item);
    return record;
  };
  return top.map((item) => {
    const record = one(item);
    if (nest) record.reactions = replies.filter((reply) => reply.parentId === item.id).map(one);
    return record;
  });
}
