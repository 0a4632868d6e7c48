/** Shared set-up for the argument tests: a site with an idea and users of each role. */
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, type TestUser } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/ideas-fixture';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import type { ArgumentRecordShape } from '#schemas/argument';

export const LONG = 'This argument is long enough to pass the default minimum length.';

export interface World {
  siteId: number;
  ideaId: number;
  member: TestUser;
  other: TestUser;
  moderator: TestUser;
}

export async function world(config: SiteConfigInput = {}): Promise<World> {
  const site = await createSite(config);
  const [member, other, moderator] = await Promise.all([
    createUser(site.id, 'member'),
    createUser(site.id, 'member'),
    createUser(site.id, 'moderator'),
  ]);
  const idea = await createIdea(site.id, member.id);
  return { siteId: site.id, ideaId: idea.id, member, other, moderator };
}

export async function postArgument(
  w: { siteId: number; ideaId: number },
  token: string,
  body: Record<string, unknown> = {},
) {
  return invoke<ArgumentRecordShape>(createArgument, {
    method: 'POST',
    params: { siteId: w.siteId, ideaId: w.ideaId },
    token,
    body: { description: LONG, ...body },
  });
}

/** Creates an argument and returns its id (fails the test when the create does not answer 201). */
export async function argumentId(w: { siteId: number; ideaId: number }, token: string, body: Record<string, unknown> = {}) {
  const res = await postArgument(w, token, body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}
