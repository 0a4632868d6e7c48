/**
 * End to end: the docs page in a real browser. serverless-offline (started once by the e2e global setup)
 * serves the bundled handlers; headless Chromium, driven by playwright-core, opens `/api/docs`, whose script loads
 * `/api/openapi.json` under the page's strict CSP and renders every endpoint.
 *
 * Needs the Debian Chromium (tests/support/chromium.ts); without it the test is skipped and says so.
 */
import { describe, expect, inject, it } from 'vitest';
import { TAGS } from '#lib/openapi/routes';
import { hasChromium, skipNote, withBrowser } from '#tests/support/chromium';

const apiUrl = inject('apiUrl');

describe.skipIf(!hasChromium)(`the docs page in headless Chromium${skipNote('tests/e2e/docs-page.test.ts')}`, () => {
  it('renders every endpoint of the document, grouped by tag, with no CSP violation or script error', async () => {
    await withBrowser(async (page, { problems, requests }) => {
      const response = await page.goto(`${apiUrl}/api/docs`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
      await page.waitForSelector('body[data-state="ready"]');

      const doc = (await (await fetch(`${apiUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
      const expected = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
      const rendered = await page.locator('section.op').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-route')));
      expect(rendered.sort()).toEqual(expected.sort());

      // The vote endpoint, as a reader sees it: method and path in its heading, its body and errors.
      const vote = page.locator('section.op[data-route="POST /api/site/{siteId}/vote"]');
      expect(await vote.locator('h3').innerText()).toMatch(/POST\s+\/api\/site\/\{siteId\}\/vote/);
      const voteText = await vote.innerText();
      expect(voteText).toContain('Idempotency-Key');
      expect(voteText).toContain('VoteRoundBody');
      expect(voteText).toMatch(/409\s+Conflict/);
      // One section per tag of the route table, in its order (tests/unit/openapi/routes.test.ts: each has routes).
      expect(await page.locator('section.tag h2').allInnerTexts()).toEqual(Object.keys(TAGS));
      expect(await page.locator('#schema-Idea table').count()).toBe(1);

      // The filter hides what does not match.
      await page.fill('#filter', 'anonymize');
      expect(await vote.isHidden()).toBe(true);
      expect(await page.locator('section.op[data-route="PUT /api/site/{siteId}/user/{userId}/do-anonymize"]').isVisible()).toBe(true);

      expect(problems).toEqual([]);
      // Only the page and its document were requested: nothing from elsewhere.
      expect(requests.filter((u) => !u.startsWith(apiUrl))).toEqual([]);
    });
  });
});
