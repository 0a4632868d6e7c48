/**
 * `can` on a record is what the caller's write would be answered, exactly: for any caller (none,
 * member owner or not, moderator, admin, service token, another site's moderator), idea status, site
 * config and activity (votes, arguments), `can.edit` is true iff the PUT succeeds and `can.delete` iff
 * the DELETE does; on arguments, `can.reply` iff a reply is accepted (fast-check properties).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { putIdea } from '#tests/support/ideas-fixture';
import { castVotes, seedArgument } from '../ideas/helpers.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';
import { handler as deleteIdea } from '../../../functions/ideas/delete.ts';
import { handler as getArgument } from '../../../functions/arguments/get.ts';
import { handler as updateArgument } from '../../../functions/arguments/update.ts';
import { handler as deleteArgument } from '../../../functions/arguments/delete.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { ArgumentRecordShape } from '#schemas/argument';

const CALLERS = ['none', 'owner', 'member', 'moderator', 'admin', 'service', 'otherSiteModerator', 'ownerAnonymousRole'] as const;
type CallerKind = (typeof CALLERS)[number];
const STATUSES = ['OPEN', 'CLOSED', 'ACCEPTED', 'DENIED', 'BUSY', 'DONE'] as const;
const LONG = 'A reply that is long enough to pass the default minimum length.';

async function tokenOf(kind: CallerKind, siteId: number, ownerToken: string): Promise<string | undefined> {
  switch (kind) {
    case 'none':
      return undefined;
    case 'owner':
    case 'ownerAnonymousRole':
      return ownerToken;
    case 'service':
      return SERVICE_TOKEN;
    case 'otherSiteModerator':
      return (await createUser((await createSite()).id, 'moderator')).token;
    default:
      return (await createUser(siteId, kind)).token;
  }
}

const auth = (token: string | undefined) => (token ? { token } : {});

describe('can on ideas and arguments is the answer the write would get', () => {
  it('ideas: can.edit iff PUT succeeds, can.delete iff DELETE succeeds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          caller: fc.constantFrom(...CALLERS),
          status: fc.constantFrom(...STATUSES),
          lenient: fc.boolean(),
          voted: fc.boolean(),
          argued: fc.boolean(),
          projectEnded: fc.boolean(),
        }),
        async ({ caller, status, lenient, voted, argued, projectEnded }) => {
          const site = await createSite({ ideas: { canEditAfterFirstLikeOrArg: lenient }, project: { projectHasEnded: projectEnded } });
          const owner = await createUser(site.id, caller === 'ownerAnonymousRole' ? 'anonymous' : 'member');
          const idea = await putIdea(site.id, { userId: owner.id, fields: { status } });
          if (voted) await castVotes(site.id, (await createUser(site.id, 'member')).id, { [idea.id]: 'yes' });
          if (argued) await seedArgument(site.id, idea.id);
          const token = await tokenOf(caller, site.id, owner.token);
          const params = { siteId: site.id, ideaId: idea.id };
          const read = await invoke<IdeaRecord>(getIdea, { params, ...auth(token) });
          if (caller === 'otherSiteModerator') {
            // The main API refuses another site's token outright, reads included: nothing to compare.
            expect(read.status).toBe(401);
            expect((await invoke(updateIdea, { method: 'PUT', params, body: { title: 'A changed title here' }, ...auth(token) })).status).toBe(401);
            return;
          }
          expect(read.status).toBe(200);
          const put = await invoke(updateIdea, { method: 'PUT', params, body: { title: 'A changed title here' }, ...auth(token) });
          expect(put.status === 200, `PUT ${put.status}`).toBe(read.body.can?.edit);
          const del = await invoke(deleteIdea, { method: 'DELETE', params, ...auth(token) });
          expect(del.status === 200, `DELETE ${del.status}`).toBe(read.body.can?.delete);
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);

  it('arguments: can.edit iff PUT succeeds, can.reply iff a reply is accepted, can.delete iff DELETE succeeds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          caller: fc.constantFrom(...CALLERS),
          reply: fc.boolean(),
          closed: fc.boolean(),
          projectEnded: fc.boolean(),
        }),
        async ({ caller, reply, closed, projectEnded }) => {
          const site = await createSite({ arguments: { isClosed: closed }, project: { projectHasEnded: projectEnded } });
          const owner = await createUser(site.id, caller === 'ownerAnonymousRole' ? 'anonymous' : 'member');
          const idea = await putIdea(site.id, { userId: owner.id });
          const parent = await seedArgument(site.id, idea.id, { userId: owner.id });
          const argument = reply ? await seedArgument(site.id, idea.id, { userId: owner.id, parentId: parent.id }) : parent;
          const token = await tokenOf(caller, site.id, owner.token);
          const params = { siteId: site.id, ideaId: idea.id, argumentId: argument.id };
          const read = await invoke<ArgumentRecordShape>(getArgument, { params, ...auth(token) });
          if (caller === 'otherSiteModerator') {
            expect(read.status).toBe(401);
            expect((await invoke(updateArgument, { method: 'PUT', params, body: { description: LONG }, ...auth(token) })).status).toBe(401);
            return;
          }
          expect(read.status).toBe(200);
          const answer = await invoke(createArgument, { method: 'POST', params: { siteId: site.id, ideaId: idea.id }, body: { description: LONG, parentId: argument.id }, ...auth(token) });
          expect(answer.status === 201, `reply ${answer.status}`).toBe(read.body.can?.reply);
          const put = await invoke(updateArgument, { method: 'PUT', params, body: { description: LONG }, ...auth(token) });
          expect(put.status === 200, `PUT ${put.status}`).toBe(read.body.can?.edit);
          const del = await invoke(deleteArgument, { method: 'DELETE', params, ...auth(token) });
          expect(del.status === 200, `DELETE ${del.status}`).toBe(read.body.can?.delete);
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);
});
