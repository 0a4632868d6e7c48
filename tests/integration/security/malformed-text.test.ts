/**
 * Text that is not well-formed UTF-16 (a lone surrogate, which JSON's `\ud800` escape can carry and
 * UTF-8 cannot encode) anywhere in a body or a query is a 400 naming its path (CONTRACT "Decided
 * details, security"), before any rule or store sees it. The attack that found it: a tag name
 * `"x\ud800"` reached `encodeURIComponent` and was a 500. Well-formed text of any plane is taken.
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { errorOf } from '#tests/support/bodies';
import { send } from '#tests/support/hostile/send';
import { handler as createTag } from '../../../functions/tags/create.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as health } from '../../../functions/system/health.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';

/** JSON text with a lone surrogate escaped as JSON allows (JSON.stringify writes it so too). */
const text = (value: unknown) => JSON.stringify(value);

describe('lone surrogates', () => {
  it('a tag name or group of "x\\ud800" is a 400 naming the field, not a 500', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const tag = { method: 'POST', path: '/api/site/{siteId}/tag' };
    for (const [body, path] of [[{ name: 'x\ud800' }, 'name'], [{ name: 'ok', group: '\udfffx' }, 'group']] as const) {
      const answer = await send(createTag, tag, { params: { siteId: String(site.id) }, token: moderator.token, rawBody: text(body) });
      expect(answer.status, answer.text).toBe(400);
      const error = JSON.parse(answer.text) as { error: string; details: Array<{ path: string; message: string }> };
      expect(error.error).toBe('ValidationError');
      expect(error.details).toEqual([{ path, message: expect.stringMatching(/well-formed UTF-16/) }]);
    }
    const list = await send(createTag, tag, { params: { siteId: String(site.id) }, token: moderator.token, rawBody: text({ name: 'Café 🙂 𝕏' }) });
    expect(list.status, list.text).toBe(201);
  });

  it('anywhere in a body: deep values and keys, each named by its path (a key shown with U+FFFD)', async () => {
    const site = await createSite();
    const body = { config: { custom: { list: ['fine', 'a\ud83dz'], ['k\udc00']: 1 } } };
    const answer = await send(updateSite, { method: 'PUT', path: '/api/site/{siteId}' }, { params: { siteId: String(site.id) }, token: SERVICE_TOKEN, rawBody: text(body) });
    expect(answer.status).toBe(400);
    const details = (JSON.parse(answer.text) as { details: Array<{ path: string }> }).details.map((d) => d.path);
    expect(details.sort()).toEqual(['config.custom.k\ufffd', 'config.custom.list[1]'].sort());
    // The answer itself is well-formed: it can be sent as UTF-8.
    expect(answer.text.isWellFormed()).toBe(true);
  });

  it('anywhere in a query, read by the route or not: 400 naming the parameter', async () => {
    const site = await createSite();
    const read = (query: Record<string, string>) => invoke(listIdeas, { params: { siteId: site.id }, query });
    expect(errorOf((await read({ search: 'caf\ud800' })).body).details).toEqual([{ path: 'search', message: expect.any(String) }]);
    expect(errorOf((await read({ utm_source: '\udfff' })).body).details).toEqual([{ path: 'utm_source', message: expect.any(String) }]);
    expect((await read({ search: 'café' })).status).toBe(200);
    // A route without a query schema too.
    expect((await invoke(health, { query: { x: 'a\ud800' } })).status).toBe(400);
  });
});
