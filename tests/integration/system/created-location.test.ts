/**
 * Every create answers 201 with `Location`: the path of the record it made (RFC 9110 10.2.2), which
 * a GET (or, for a tag, PUT/DELETE) then finds. The document says so on each (tests/unit/openapi).
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { validIdea } from '../ideas/helpers.ts';
import { handler as createSiteHandler } from '../../../functions/sites/create.ts';
import { handler as getSite } from '../../../functions/sites/get.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as createArticle } from '../../../functions/articles/create.ts';
import { handler as getArticle } from '../../../functions/articles/get.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as getArgument } from '../../../functions/arguments/get.ts';
import { handler as createUserHandler } from '../../../functions/users/create.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as createTag } from '../../../functions/tags/create.ts';
import { handler as updateTag } from '../../../functions/tags/update.ts';
import { handler as signup } from '../../../functions/newsletter/create.ts';

/** The path parameters of a Location against its route's template. */
function paramsOf(location: string | undefined, template: RegExp): Record<string, string> {
  const match = template.exec(location ?? '');
  expect(match, location).not.toBeNull();
  return match!.groups!;
}

describe('Location on 201', () => {
  it('site, idea, article, argument, user and tag creates point at the record they made', async () => {
    const site = await invoke<{ id: number }>(createSiteHandler, { method: 'POST', token: SERVICE_TOKEN, body: { name: 'located', config: { newslettersignup: { isActive: true } } } });
    expect(site.status).toBe(201);
    const siteId = paramsOf(site.headers.location, /^\/api\/site\/(?<siteId>\d+)$/).siteId!;
    expect(Number(siteId)).toBe(site.body.id);
    expect((await invoke(getSite, { params: { siteId } })).status).toBe(200);

    const id = site.body.id;
    const moderator = await createUser(id, 'moderator');
    const idea = await invoke<{ id: number }>(createIdea, { method: 'POST', params: { siteId: id }, token: moderator.token, body: validIdea('located') });
    const ideaPath = paramsOf(idea.headers.location, /^\/api\/site\/(?<siteId>\d+)\/idea\/(?<ideaId>\d+)$/);
    expect(ideaPath).toEqual({ siteId: String(id), ideaId: String(idea.body.id) });
    expect((await invoke(getIdea, { params: ideaPath })).status).toBe(200);

    const article = await invoke<{ id: number }>(createArticle, { method: 'POST', params: { siteId: id }, token: moderator.token, body: validIdea('article') });
    const articlePath = paramsOf(article.headers.location, /^\/api\/site\/(?<siteId>\d+)\/article\/(?<articleId>\d+)$/);
    expect((await invoke(getArticle, { params: articlePath })).status).toBe(200);

    const argument = await invoke<{ id: number }>(createArgument, {
      method: 'POST',
      params: { siteId: id, ideaId: idea.body.id },
      token: moderator.token,
      body: { description: 'An argument long enough to be taken by the site.' },
    });
    const argumentPath = paramsOf(argument.headers.location, /^\/api\/site\/(?<siteId>\d+)\/idea\/(?<ideaId>\d+)\/argument\/(?<argumentId>\d+)$/);
    expect(argumentPath).toEqual({ siteId: String(id), ideaId: String(idea.body.id), argumentId: String(argument.body.id) });
    expect((await invoke(getArgument, { params: argumentPath })).status).toBe(200);

    const user = await invoke<{ id: number }>(createUserHandler, { method: 'POST', params: { siteId: id }, token: SERVICE_TOKEN, body: { email: 'located@example.org', role: 'member' } });
    const userPath = paramsOf(user.headers.location, /^\/api\/site\/(?<siteId>\d+)\/user\/(?<userId>\d+)$/);
    expect((await invoke(getUser, { params: userPath, token: SERVICE_TOKEN })).status).toBe(200);

    const tag = await invoke<{ id: number }>(createTag, { method: 'POST', params: { siteId: id }, token: moderator.token, body: { name: 'located' } });
    const tagPath = paramsOf(tag.headers.location, /^\/api\/site\/(?<siteId>\d+)\/tag\/(?<tagId>\d+)$/);
    expect((await invoke(updateTag, { method: 'PUT', params: tagPath, token: moderator.token, body: { name: 'moved' } })).status).toBe(200);

    // A newsletter signup has no URL of its own: no Location.
    const signed = await invoke(signup, { method: 'POST', params: { siteId: id }, body: { email: 'news@example.org' } });
    expect(signed.status).toBe(201);
    expect(signed.headers.location).toBeUndefined();
  });

  it('a refused create carries no Location', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    const refused = await invoke(createTag, { method: 'POST', params: { siteId: site.id }, token: member.token, body: { name: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.location).toBeUndefined();
  });
});
