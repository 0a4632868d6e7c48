/**
 * Two of OpenStad's own widgets, built from their source (tests/support/openstad-widgets.ts), in
 * headless Chromium on a city's page of another origin, against the local stack's `/openstad`: the
 * page logs in as the widgets' libs do (`getUser` reads `/oauth/site/:id/me` with the JWT), the ideas
 * overview lists the site's ideas, the idea details shows one with its arguments (its reactions
 * widget) and its like button, and a click casts a like that the API counts (and a second click
 * takes it back, as OpenStad's likes did).
 *
 * Needs the Debian Chromium (tests/support/chromium.ts); without it the test is skipped and says so.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

vi.hoisted(() => {
  // The fixtures write to the local stack's table (scripts/local-stack-env.ts LOCAL_TABLE_NAME).
  process.env.TABLE_NAME = 'participation-api-local';
});

import { createSite, createUser, type TestUser } from '#tests/support/fixtures';
import { hasChromium, skipNote, withBrowser } from '#tests/support/chromium';
import { servePages, type PageServer } from '#tests/support/page-server';
import { buildOpenStadWidgets } from '#tests/support/openstad-widgets';

type Rec = Record<string, unknown>;
const apiUrl = inject('apiUrl');
const surface = `${apiUrl}/openstad`;
const TITLES = ['Bomen langs de gracht', 'Een bankje op het plein'];
const ARGUMENT = 'Meer schaduw in de zomer is goed voor iedereen in de straat.';
/** The idea details' like button, in the page's own script language (the test's TypeScript has no DOM). */
const LIKE = "document.querySelector('#details .osc-vote-button-yes')";
const VOTE = { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' } as const;

/** A city's page: the widgets' bundle, then the user as the libs read it, then both widgets rendered. */
const page = (settings: Rec) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Plannen</title></head>
<body>
<div id="overview"></div>
<div id="details"></div>
<script type="application/json" id="settings">${JSON.stringify(settings)}</script>
<script src="/widgets.js"></script>
<script>
  const settings = JSON.parse(document.getElementById('settings').textContent);
  const widgets = window.OpenStadComponents;
  widgets.libs.user.getUser({ jwt: settings.jwt, siteId: settings.siteId, api: settings.api }, (error, user) => {
    if (error) { document.body.dataset.state = 'no user: ' + error.message; return; }
    const config = { siteId: settings.siteId, api: settings.api, user, vote: settings.vote };
    widgets['ideas-overview'].IdeasOverview.renderElement(document.getElementById('overview'), config);
    widgets['idea-details'].IdeaDetails.renderElement(document.getElementById('details'), { ...config, ideaId: settings.ideaId });
    document.body.dataset.state = 'rendered';
  });
</script>
</body></html>`;

async function mainApi<T = unknown>(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'X-Authorization': `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

describe.skipIf(!hasChromium)(`OpenStad's widgets in headless Chromium${skipNote('tests/e2e/openstad-widgets.test.ts')}`, () => {
  let server: PageServer | undefined;
  let siteId: number;
  let member: TestUser;
  let ideaIds: number[];

  beforeAll(async () => {
    siteId = (await createSite({ allowedDomains: ['localhost'], votes: VOTE, users: { allowUseOfNicknames: true } })).id;
    member = await createUser(siteId, 'member', { nickName: 'Mia' });
    const author = await createUser(siteId, 'member');
    ideaIds = [];
    for (const title of TITLES) {
      const created = await mainApi<Rec>('POST', `/api/site/${siteId}/idea`, author.token, {
        title,
        summary: 'Een samenvatting die lang genoeg is voor de site.',
        description: 'Een beschrijving van het plan, lang genoeg om door de regels van de site te komen. '.repeat(3),
      });
      expect(created.status).toBe(201);
      ideaIds.push(created.body['id'] as number);
    }
    const argument = await mainApi<Rec>('POST', `/api/site/${siteId}/idea/${ideaIds[0]}/argument`, author.token, { sentiment: 'for', description: ARGUMENT });
    expect(argument.status).toBe(201);
    const settings = { siteId, api: { url: surface }, jwt: member.token, ideaId: ideaIds[0], vote: { ...VOTE, voteValues: [{ label: 'eens', value: 'yes' }] } };
    server = await servePages({
      '/': { type: 'text/html; charset=utf-8', body: page(settings) },
      '/widgets.js': { type: 'text/javascript; charset=utf-8', body: await buildOpenStadWidgets() },
      '/favicon.ico': { type: 'image/x-icon', body: '' },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('the overview lists the ideas; a like click in the details is counted, a second takes it back', async () => {
    await withBrowser(async (browserPage, seen) => {
      const apiCalls: string[] = [];
      browserPage.on('request', (request) => {
        if (!request.url().startsWith(surface)) return;
        const body = request.postData();
        apiCalls.push(`${request.method()} ${request.url().slice(surface.length)}${body ? ` ${body}` : ''}`);
      });
      await browserPage.goto(`${server!.origin}/`);
      await browserPage.waitForFunction('document.body.dataset.state !== undefined');
      expect(await browserPage.evaluate('document.body.dataset.state')).toBe('rendered');

      // The overview: a bare array, sorted by the widget; each tile shows its title and its likes.
      const tiles = browserPage.locator('#overview .osc-idea-tile');
      await tiles.nth(TITLES.length - 1).waitFor();
      expect(await tiles.count()).toBe(TITLES.length);
      expect((await browserPage.locator('#overview .osc-idea-tile .osc-idea-tile-content .osc-title').allInnerTexts()).sort()).toEqual([...TITLES].sort());

      // The details hold OpenStad's reactions widget: it asks `sentiment=undefined` and shows the argument.
      await browserPage.locator('#details .osc-reaction-description').first().waitFor();
      expect(await browserPage.locator('#details .osc-reaction-description').allInnerTexts()).toEqual([ARGUMENT]);

      // The details: its like button shows the count; a click casts `{ideaId, opinion}` and reads `[0]` of the answer.
      const like = browserPage.locator('#details .osc-vote-button-yes');
      await like.waitFor();
      // Its number plates: one digit each, at least three ("000").
      const plates = async () => (await like.locator('.osc-numberplate').allInnerTexts()).join('');
      const count = async () => Number(await plates());
      expect(await plates()).toBe('000');
      await like.click();
      await browserPage.waitForFunction(`${LIKE}.classList.contains('osc-user-has-voted')`);
      expect(await count()).toBe(1);
      const afterLike = await mainApi<Rec>('GET', `/api/site/${siteId}/idea/${ideaIds[0]}?includeVoteCount=1`, member.token);
      expect(afterLike.body).toMatchObject({ yes: 1 });

      // A like given twice is taken back: the answer holds no vote of this round, the widget counts down.
      await browserPage.waitForFunction(`!${LIKE}.classList.contains('osc-busy')`);
      await like.click();
      await browserPage.waitForFunction(`!${LIKE}.classList.contains('osc-user-has-voted')`);
      expect(await count()).toBe(0);
      const afterTakeBack = await mainApi<Rec>('GET', `/api/site/${siteId}/idea/${ideaIds[0]}?includeVoteCount=1`, member.token);
      expect(afterTakeBack.body).toMatchObject({ yes: 0 });

      // What the widgets asked, as their source has it.
      const vote = JSON.stringify({ ideaId: ideaIds[0], opinion: 'yes' });
      expect(apiCalls).toEqual(
        expect.arrayContaining([
          `GET /oauth/site/${siteId}/me`,
          `GET /api/site/${siteId}/idea?summary=1&includeVoteCount=1&includeArgsCount=1`,
          `GET /api/site/${siteId}/idea/${ideaIds[0]}?includeVoteCount=1&includeArguments=1&includeArgsCount=1&includeUser=1&includeUserVote=1`,
          `POST /api/site/${siteId}/vote ${vote}`,
          `GET /api/site/${siteId}/idea/${ideaIds[0]}/argument?sentiment=undefined&withUser=1&withUserVote=1&withVoteCount=1&includeReactionsOnReactions=1`,
        ]),
      );
      expect(apiCalls.filter((call) => call.startsWith('POST'))).toEqual([`POST /api/site/${siteId}/vote ${vote}`, `POST /api/site/${siteId}/vote ${vote}`]);
      expect(seen.problems).toEqual([]);
    });
  });
});
