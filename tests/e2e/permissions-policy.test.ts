/**
 * The API's `Permissions-Policy` names only features browsers know: headless Chromium opens the docs
 * page, a JSON answer and an error answer, and logs no "Error with Permissions-Policy header" (Middy's
 * default list made it log 15 per page). Skipped, saying so, without /usr/bin/chromium.
 */
import { describe, expect, inject, it } from 'vitest';
import { existsSync } from 'node:fs';
import { PERMISSIONS_POLICY } from '#lib/http/stack';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/e2e/permissions-policy.test.ts skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const apiUrl = inject('apiUrl');

describe.skipIf(!hasChromium)('Permissions-Policy in a real browser', () => {
  it('every page the API serves carries the policy, and Chromium warns about none of its features', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (/Permissions-Policy|Feature Policy|Unrecognized feature/i.test(message.text())) warnings.push(message.text());
      });
      for (const path of ['/api/docs', '/api/health', '/api/site/', '/api/site/999999999', '/api/no-such-route']) {
        const response = await page.goto(`${apiUrl}${path}`);
        expect(response!.headers()['permissions-policy'], path).toBe(PERMISSIONS_POLICY);
      }
      expect(warnings).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
