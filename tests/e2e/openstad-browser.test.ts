/**
 * The OpenStad surface from a browser page of another origin, in headless Chromium against the local
 * stack (serverless-offline): what the CMS's admin dashboard does when it reads the stats routes with a
 * moderator's token (a CORS preflight first, then the read), from a site's allowed origin and from
 * one that is not.
 *
 * Needs the Debian Chromium (tests/support/chromium.ts); without it the tests are skipped and say so.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

vi.hoisted(() => {
  // The fixtures write to the local stack's table (scripts/local-stack-env.ts LOCAL_TABLE_NAME).
  process.env.TABLE_NAME = 'participation-api-local';
});

import { createSite, createUser, type TestUser } from '#tests/support/fixtures';
import { hasChromium, skipNote, withBrowser } from '#tests/support/chromium';
import { servePages, type PageServer } from '#tests/support/page-server';

const api = `${inject('apiUrl')}/openstad`;
const blank = {
  '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><title>city</title>' },
  '/favicon.ico': { type: 'image/x-icon', body: '' },
};

interface PageFetch {
  status?: number;
  body?: unknown;
  error?: string;
}

describe.skipIf(!hasChromium)(`the OpenStad surface from a browser page${skipNote('tests/e2e/openstad-browser.test.ts')}`, () => {
  let allowed: PageServer;
  let stranger: PageServer;
  let siteId: number;
  let moderator: TestUser;

  beforeAll(async () => {
    allowed = await servePages(blank);
    stranger = await servePages(blank, '127.0.0.1');
    siteId = (await createSite({ allowedDomains: ['localhost'], votes: { isViewable: true, isActive: true, voteType: 'likes' } })).id;
    moderator = await createUser(siteId, 'moderator');
  });

  afterAll(async () => {
    await allowed?.stop();
    await stranger?.stop();
  });

  /** `fetch` of each path from a page of `origin`, with the moderator's token as the CMS sends it (a header that makes the browser ask a preflight first). */
  const fetchFrom = (origin: string, paths: string[]) =>
    withBrowser(async (page, seen) => {
      await page.goto(`${origin}/`);
      const answers = await page.evaluate(
        async ({ urls, token }) =>
          Promise.all(
            urls.map(async (url): Promise<PageFetch> => {
              try {
                const res = await fetch(url, { headers: { 'X-Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' } });
                return { status: res.status, body: await res.json() };
              } catch (error) {
                return { error: String(error) };
              }
            }),
          ),
        { urls: paths.map((path) => `${api}${path}`), token: moderator.token },
      );
      return { answers, problems: seen.problems };
    });

  it('the dashboard on an allowed origin reads every stats route: the preflight passes, the read answers', async () => {
    const paths = ['overview', 'idea/total', 'vote/total?opinion=yes', 'vote/no-of-users', 'argument/total'];
    const { answers, problems } = await fetchFrom(allowed.origin, paths.map((path) => `/stats/site/${siteId}/${path}`));
    paths.forEach((path, i) => {
      const answer = answers[i]!;
      expect(answer.error, path).toBeUndefined();
      expect(answer.status, path).toBe(200);
      if (path === 'overview') expect((answer.body as Array<{ key: string }>).map((e) => e.key)).toContain('ideaTotal');
      else expect(answer.body, path).toEqual({ count: expect.any(Number) });
    });
    expect(problems).toEqual([]);
  });

  it('a page of another origin cannot make the browser send the token: the preflight is refused', async () => {
    const { answers, problems } = await fetchFrom(stranger.origin, [`/stats/site/${siteId}/overview`]);
    const answer = answers[0]!;
    expect(answer.status).toBeUndefined();
    expect(answer.error).toMatch(/Failed to fetch/);
    expect(problems.join('\n')).toMatch(/CORS/);
  });
});
