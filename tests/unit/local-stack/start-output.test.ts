/**
 * What `npm start` prints (scripts/start/): serverless-offline's banner, function list, route table
 * and per-request lines are hidden unless `--verbose`; errors, warnings, the handler host's notices and
 * the handlers' JSON log lines are kept; the status block fits a screen and holds what a developer
 * copies: the URLs, the dev token, the login link, the seed command.
 */
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { forwardLines, isHandlerLogLine, isOfflineNotice } from '../../../scripts/start/offline-output.ts';
import { statusBlock } from '../../../scripts/start/status.ts';

const OFFLINE_STDERR = [
  'Starting Offline at stage local (eu-west-1)',
  '',
  'Offline [http for lambda] listening on http://localhost:3002',
  'Function names exposed for local invocation by aws-sdk:',
  '           * voteCast: participation-api-local-voteCast',
  'Server ready: http://127.0.0.1:3000 🚀',
  'POST /api/site/1/vote (λ: voteCast)',
  '(λ: voteCast) RequestId: 1c2d Duration: 12.00 ms  Billed Duration: 13 ms',
];

describe("serverless-offline's output under npm start", () => {
  it('hides its own notices and keeps what a developer acts on', () => {
    expect(OFFLINE_STDERR.filter((line) => !isOfflineNotice(line))).toEqual([]);
    for (const kept of ['handlers reloaded (lib/votes/round.ts)', 'Error: Cannot find module', '    at file:///work/lib/x.ts:3:7', 'Warning: something'])
      expect(isOfflineNotice(kept), kept).toBe(false);
  });

  it('shows only the handlers’ JSON log lines of its stdout, not the route table', async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    let shown = '';
    to.on('data', (d: Buffer) => (shown += d.toString()));
    forwardLines(from, to, isHandlerLogLine);
    from.end(['   ┌───────────────┐', '   │ GET | http://127.0.0.1:3000/api/site │', '{"level":"INFO","message":"request","status":200}', ''].join('\n'));
    await new Promise((r) => setImmediate(r));
    expect(shown).toBe('{"level":"INFO","message":"request","status":200}\n');
  });
});

describe('the status block', () => {
  const block = statusBlock({
    seconds: '4.2',
    apiUrl: 'http://localhost:3000',
    authUrl: 'http://127.0.0.1:4000',
    demoUsers: ['admin@example.org', 'member@example.org'],
    dynamoEndpoint: 'http://127.0.0.1:8000',
    inMemory: true,
    dataDir: '/repo/.data/db',
    serviceToken: 'local-dev-token',
    jobsEverySeconds: 60,
  });

  it('says ready, fits a screen, and holds the URLs, the token, the login link and the seed command', () => {
    const lines = block.split('\n');
    expect(lines.length).toBeLessThanOrEqual(15);
    expect(block).toContain('The participation API is ready in 4.2 s');
    expect(block).toContain('http://localhost:3000/api/docs');
    expect(block).toContain('X-Authorization: Bearer local-dev-token');
    expect(block).toContain('http://localhost:3000/oauth/site/1/login?redirectUrl=http://localhost:3000/api/site/1');
    expect(block).toContain('admin@example.org, member@example.org');
    expect(block).toContain('npm run seed -- --demo');
  });
});
