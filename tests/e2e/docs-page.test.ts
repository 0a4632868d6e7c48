/**
 * End to end: the docs page in a real browser. serverless-offline (started once by the e2e global setup)
 * serves the bundled handlers; headless Chromium, driven by playwright-core, opens `/api/docs`, whose script loads
 * `/api/openapi.json` under the page's strict CSP and renders every endpoint.
 *
 * Needs the Debian Chromium: `apt-get install -y chromium chromium-driver`. Without /usr/bin/chromium
 * the test is skipped and says so.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TAGS } from '#lib/openapi/routes';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const SKIP_NOTE = `skipped: ${CHROMIUM} is missing; install it with \`apt-get install -y chromium chromium-driver\``;
if (!hasChromium) console.warn(`tests/e2e/docs-page.test.ts ${SKIP_NOTE}`);

const apiUrl = inject('apiUrl');
let userDataDir: string | undefined;

describe.skipIf(!hasChromium)(`the docs page in headless Chromium${hasChromium ? '' : ` (${SKIP_NOTE})`}`, () => {
  beforeAll(async () => {
    userDataDir = mkdtempSync(join(tmpdir(), 'docs-page-chromium-'));
  });

  afterAll(async () => {
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('renders every endpoint of the document, grouped by tag, with no CSP violation or script error', async () => {
    const { chromium } = await import('playwright-core');
    const context = await chromium.launchPersistentContext(userDataDir!, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
      });
      page.on('pageerror', (err) => problems.push(err.message));
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));

      const response = await page.goto(`${apiUrl}/api/docs`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
      await page.waitForSelector('body[data-state="ready"]', { timeout: 30_000 });

      const doc = (await (await fetch(`${apiUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
      const expected = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
      const rendered = await page.locator('section.op').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-route')));
      expect(rendered.sort()).toEqual(expected.sort());

      // The vote endpoint, as a reader sees it: method and path in its heading, its body and errors.
      const vote = page.locator('section.op[data-route="POST /api/site/{siteId}/vote"]');
      await expect.poll(() => vote.locator('h3').innerText()).toMatch(/POST\s+\/api\/site\/\{siteId\}\/vote/);
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
    } finally {
      await context.close();
    }
  });
});
