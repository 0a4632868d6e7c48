/**
 * End to end: the docs page in a real browser. serverless-offline (started once by the e2e global
 * setup) serves the page and its files; headless Chromium opens `/api/docs`, where Swagger UI renders
 * every operation of `/api/openapi.json` under the page's strict CSP, shows the documented examples,
 * and sends a request to the running server with "Try it out", loading nothing from anywhere else.
 */
import { describe, expect, inject, it } from 'vitest';
import { hasChromium, skipNote, withBrowser } from '#tests/support/chromium';

const apiUrl = inject('apiUrl');

describe.skipIf(!hasChromium)(`the docs page in headless Chromium${skipNote('tests/e2e/docs-page.test.ts')}`, () => {
  it('renders every operation with its examples, and sends a request from the page', async () => {
    await withBrowser(async (page, seen) => {
      const response = await page.goto(`${apiUrl}/api/docs`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
      await page.waitForSelector('body[data-state="ready"]');
      expect(seen.problems).toEqual([]);

      // Every operation of the document, one block each.
      const doc = (await (await fetch(`${apiUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
      const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
      await page.waitForFunction(`document.querySelectorAll('.opblock').length === ${operations.length}`);

      // The vote round, as a reader sees it: its example body and its 409.
      const vote = page.locator('#operations-Votes-voteCast');
      await vote.locator('.opblock-summary').click();
      await vote.locator('.opblock-body').waitFor();
      const voteText = await vote.innerText();
      expect(voteText).toContain('Idempotency-Key');
      expect(voteText).toContain('"ideaId"');
      expect(voteText).toContain('409');

      // Try it out: the health check, sent from the page to this server.
      const health = page.locator('#operations-System-health');
      await health.locator('.opblock-summary').click();
      await health.locator('.try-out__btn').click();
      const sent = page.waitForResponse((res) => res.url() === `${apiUrl}/api/health`);
      await health.locator('.execute').click();
      expect((await sent).status()).toBe(200);
      await health.locator('.live-responses-table .response-col_status').first().waitFor();
      expect(await health.locator('.live-responses-table').innerText()).toContain('"status": "ok"');

      expect(seen.problems).toEqual([]);
      // Nothing was asked of another origin: the page's files come from this API.
      expect(seen.requests.filter((url) => !url.startsWith(apiUrl) && !url.startsWith('data:'))).toEqual([]);
      expect(seen.requests).toContain(`${apiUrl}/api/docs/swagger-ui-bundle.js`);
    });
  });
});
