/**
 * Headless Chromium for the browser tests (the Debian build at /usr/bin/chromium, driven by
 * playwright-core). Without it those tests are skipped and say so (`.ci/run` installs it).
 *
 *   describe.skipIf(!hasChromium)(`... ${skipNote('what')}`, () => { ... await withBrowser(async (page, problems) => ...) })
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** '' with Chromium; otherwise why the test is skipped (also printed once, so a run's log says it). */
export function skipNote(what: string): string {
  if (hasChromium) return '';
  const note = `skipped: ${CHROMIUM} is missing; install it with \`apt-get install -y chromium\``;
  console.warn(`${what} ${note}`);
  return ` (${note})`;
}

/**
 * Runs `use` with a fresh page of a fresh browser profile, and closes both. `problems` collects the
 * page's console errors, Content-Security-Policy reports and uncaught exceptions; `requests` every
 * URL the page asked for.
 */
export async function withBrowser<T>(use: (page: Page, seen: { problems: string[]; requests: string[] }) => Promise<T>): Promise<T> {
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-test-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    // No time limit of playwright's own: the test runner's budget (tests/support/load-aware-runner.ts) bounds each test.
    timeout: 0,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    context.setDefaultTimeout(0);
    const page = context.pages()[0] ?? (await context.newPage());
    const seen = { problems: [] as string[], requests: [] as string[] };
    page.on('console', (msg) => {
      if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) seen.problems.push(msg.text());
    });
    page.on('pageerror', (err) => seen.problems.push(err.message));
    // Which file a "Failed to load resource" console error was about.
    page.on('response', (res) => {
      if (res.status() >= 400) seen.problems.push(`${res.status()} from ${res.request().method()} ${res.url()}`);
    });
    page.on('request', (req) => seen.requests.push(req.url()));
    return await use(page, seen);
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
