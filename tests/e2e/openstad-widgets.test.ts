/**
 * Three of OpenStad's own widgets, built from their source (tests/support/openstad-widgets.ts), in
 * headless Chromium on a city's page of another origin, against the local stack's `/openstad`: the
 * page logs in as the widgets' libs do (`getUser` reads `/oauth/site/:id/me` with the JWT), the ideas
 * overview lists the site's ideas, the idea details shows one with its arguments (its reactions
 * widget) and its like button, and a click casts a like that the API counts (and a second click
 * takes it back, as OpenStad's likes did). The ideas on a map draws a marker for each idea with a
 * location, where it is, and a marker's click opens that idea; its map tiles (the internet's, in a
 * city's page) are answered by the test with a small local image.
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
import { buildOpenStadWidgets, leafletCss } from '#tests/support/openstad-widgets';

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

let bundle: Promise<string> | undefined;
/** One build for the file's pages. */
const widgetsJs = () => (bundle ??= buildOpenStadWidgets());

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
      '/widgets.js': { type: 'text/javascript; charset=utf-8', body: await widgetsJs() },
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

/** A 1x1 PNG: every map tile the page asks for (they would come from the internet). */
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEaQHoCvGhRQAAAABJRU5ErkJggg==', 'base64');
/** The map widget's default tiles (its `nlmaps` variant: PDOK's background map). */
const TILE_URL = /^https:\/\/service\.pdok\.nl\/brt\/achtergrondkaart\/wmts\/v2_0\/standaard\/EPSG:3857\/\d+\/\d+\/\d+\.png$/;
const PLACES = [
  { title: 'Bomen langs de gracht', lat: 52.3731, lng: 4.8922 },
  { title: 'Een bankje op het plein', lat: 52.36, lng: 4.915 },
  { title: 'Fietsenstalling bij het station', lat: 52.3791, lng: 4.87 },
] as const;
const NOWHERE = 'Een idee zonder plek erbij';

/**
 * A city's map page: Leaflet's stylesheets (the widget imports them from its packages), a size for the
 * map, the widgets' bundle, a hook that keeps each Leaflet map the page makes (for the test to read its
 * markers), then the widget rendered for the logged-in user with a marker click opening the idea.
 */
const mapPage = (settings: Rec) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Kaart</title>
<style>${leafletCss()}</style>
<style>#map { width: 1000px; } .osc-map { height: 600px; width: 1000px; }</style>
</head>
<body>
<div id="map"></div>
<script type="application/json" id="settings">${JSON.stringify(settings)}</script>
<script src="/widgets.js"></script>
<script>
  window.leafletMaps = [];
  L.Map.addInitHook(function () { window.leafletMaps.push(this); });
  const settings = JSON.parse(document.getElementById('settings').textContent);
  const widgets = window.OpenStadComponents;
  widgets.libs.user.getUser({ jwt: settings.jwt, siteId: settings.siteId, api: settings.api }, (error, user) => {
    if (error) { document.body.dataset.state = 'no user: ' + error.message; return; }
    const config = { divId: 'ideas-on-map', siteId: settings.siteId, api: settings.api, user, onMarkerClickAction: 'showIdeaDetails' };
    widgets['ideas-on-map'].IdeasOnMap.renderElement(document.getElementById('map'), config);
    document.body.dataset.state = 'rendered';
  });
</script>
</body></html>`;

/** The markers on the page's map, read in the page: idea id, position, and where Leaflet drew the icon. */
const MARKERS = `(() => {
  const map = window.leafletMaps[0];
  const out = [];
  map.eachLayer((layer) => {
    if (!(layer instanceof L.Marker) || (L.MarkerCluster && layer instanceof L.MarkerCluster)) return;
    const icon = layer.getElement();
    if (icon) icon.dataset.ideaId = String(layer.options.data && layer.options.data.id);
    const drawnAt = icon && L.DomUtil.getPosition(icon);
    const expected = map.latLngToLayerPoint(layer.getLatLng());
    out.push({
      id: layer.options.data && layer.options.data.id,
      lat: layer.getLatLng().lat,
      lng: layer.getLatLng().lng,
      inPage: !!icon && document.body.contains(icon),
      drawnWhereItIs: !!drawnAt && drawnAt.x === expected.x && drawnAt.y === expected.y,
    });
  });
  return out.sort((a, b) => a.id - b.id);
})()`;

describe.skipIf(!hasChromium)(`OpenStad's ideas-on-map widget in headless Chromium${skipNote('tests/e2e/openstad-widgets.test.ts map')}`, () => {
  let server: PageServer | undefined;
  let siteId: number;
  let placed: Array<{ id: number; title: string; lat: number; lng: number }>;

  beforeAll(async () => {
    siteId = (await createSite({ allowedDomains: ['localhost'], votes: VOTE })).id;
    const author = await createUser(siteId, 'member');
    const idea = async (title: string, location?: { lat: number; lng: number }) => {
      const created = await mainApi<Rec>('POST', `/api/site/${siteId}/idea`, author.token, {
        title,
        summary: 'Een samenvatting die lang genoeg is voor de site.',
        description: 'Een beschrijving van het plan, lang genoeg om door de regels van de site te komen. '.repeat(3),
        ...(location ? { location } : {}),
      });
      expect(created.status).toBe(201);
      return created.body['id'] as number;
    };
    placed = [];
    for (const place of PLACES) placed.push({ ...place, id: await idea(place.title, { lat: place.lat, lng: place.lng }) });
    await idea(NOWHERE);
    const settings = { siteId, api: { url: surface }, jwt: author.token };
    server = await servePages({
      '/': { type: 'text/html; charset=utf-8', body: mapPage(settings) },
      '/widgets.js': { type: 'text/javascript; charset=utf-8', body: await widgetsJs() },
      '/favicon.ico': { type: 'image/x-icon', body: '' },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('draws exactly the ideas with a location, each at its coordinates; a marker click opens its idea', async () => {
    await withBrowser(async (browserPage, seen) => {
      // Nothing leaves the machine: map tiles get the local image, any other outside request fails the test.
      const tiles: string[] = [];
      const outside: string[] = [];
      await browserPage.route(
        (url) => url.hostname !== 'localhost' && url.hostname !== '127.0.0.1',
        async (route) => {
          const url = route.request().url();
          if (TILE_URL.test(url)) {
            tiles.push(url);
            await route.fulfill({ status: 200, contentType: 'image/png', body: TILE });
          } else {
            outside.push(url);
            await route.abort();
          }
        },
      );
      const apiCalls: string[] = [];
      browserPage.on('request', (request) => {
        if (request.url().startsWith(surface)) apiCalls.push(`${request.method()} ${request.url().slice(surface.length)}`);
      });
      await browserPage.goto(`${server!.origin}/`);
      await browserPage.waitForFunction('document.body.dataset.state !== undefined');
      expect(await browserPage.evaluate('document.body.dataset.state')).toBe('rendered');

      // The widget's own read: the whole list as a bare array, GeoJSON points lat first.
      await browserPage.waitForFunction(`window.leafletMaps.length === 1 && ${MARKERS}.length >= ${PLACES.length}`);
      const markers = (await browserPage.evaluate(MARKERS)) as Array<{ id: number; lat: number; lng: number; inPage: boolean; drawnWhereItIs: boolean }>;
      expect(markers).toEqual(placed.map(({ id, lat, lng }) => ({ id, lat, lng, inPage: true, drawnWhereItIs: true })).sort((a, b) => a.id - b.id));
      expect(await browserPage.locator('#map .leaflet-marker-icon').count()).toBe(PLACES.length);
      expect(apiCalls).toContain(`GET /api/site/${siteId}/idea?includeVoteCount=1&includeArgsCount=1&includeUser=1`);
      expect(tiles.length).toBeGreaterThan(0);

      // A click on a marker opens that idea: OpenStad's `#D<id>`, and its details in the widget's side bar.
      const target = placed[1]!;
      await browserPage.locator(`#map .leaflet-marker-icon[data-idea-id="${target.id}"]`).click();
      await browserPage.waitForFunction(`window.location.hash === '#D${target.id}'`);
      const heading = browserPage.locator('.osc-idea-details h2');
      await heading.waitFor();
      expect(await heading.innerText()).toBe(target.title);
      expect(apiCalls.some((call) => call.startsWith(`GET /api/site/${siteId}/idea/${target.id}?`))).toBe(true);
      expect(outside).toEqual([]);
      expect(seen.problems).toEqual([]);
    });
  });
});
