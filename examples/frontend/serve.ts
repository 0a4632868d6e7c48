/**
 * Serves the example frontend on its own origin (another port than the API's, as a real frontend is
 * on another host), with the page's own security headers:
 *
 *   npx tsx examples/frontend/serve.ts [--api http://localhost:3000] [--site 1] [--port 5173]
 *
 * The API and the site are the server's settings (`config.json`), not the page's URL: a link cannot
 * point the page, and the token it sends, at another server. The Content-Security-Policy lets the
 * page's scripts talk to this origin and the API only.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const FILES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/style.css': 'style.css',
};
const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

export interface FrontendOptions {
  apiUrl: string;
  siteId: number;
  /** 0: any free port. */
  port?: number;
  host?: string;
}

export interface RunningFrontend {
  url: string;
  stop: () => Promise<void>;
}

export function securityHeaders(apiUrl: string): Record<string, string> {
  const api = new URL(apiUrl).origin;
  return {
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ${api}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    // With `?jwt=` logins the token is in the address for a moment: never send it on as a Referer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

export async function startFrontend({ apiUrl, siteId, port = 5173, host = 'localhost' }: FrontendOptions): Promise<RunningFrontend> {
  const headers = securityHeaders(apiUrl);
  const config = JSON.stringify({ apiUrl: new URL(apiUrl).origin, siteId });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, headers).end();
    if (path === '/config.json') return void res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(config);
    const file = FILES[path];
    if (!file) return void res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found');
    readFile(join(import.meta.dirname, file)).then(
      (body) => res.writeHead(200, { ...headers, 'content-type': TYPES[file.split('.').pop()!]! }).end(body),
      () => res.writeHead(500, headers).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.filename === resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { api: { type: 'string', default: 'http://localhost:3000' }, site: { type: 'string', default: '1' }, port: { type: 'string', default: '5173' } } });
  const frontend = await startFrontend({ apiUrl: values.api, siteId: Number(values.site), port: Number(values.port) });
  console.log(`Example frontend: ${frontend.url} (API ${values.api}, site ${values.site})`);
}
