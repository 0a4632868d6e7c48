/**
 * A frontend's origin for the browser tests: a plain HTTP server on `localhost` (a free port) that
 * serves fixed files, so a page in Chromium calls the API cross-origin as a city's site does. The
 * API's local stack listens on 127.0.0.1, which is another origin.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface PageFile {
  type: string;
  body: string | Buffer;
}

export interface PageServer {
  /** `http://localhost:<port>` */
  origin: string;
  stop(): Promise<void>;
}

export async function servePages(files: Readonly<Record<string, PageFile>>, host = 'localhost'): Promise<PageServer> {
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://page').pathname];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, host === 'localhost' ? '127.0.0.1' : host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
