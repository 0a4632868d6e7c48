/**
 * A scripted auth server on 127.0.0.1 for the client's unit tests (the unit stage is local, so
 * loopback is allowed): each test says how it answers, and reads what it was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthServerConfig } from '#lib/auth-server/config';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The client's end of the connection, to tell a reused socket from a new one. */
  remotePort: number | undefined;
}

export type Answer = (req: Seen, res: ServerResponse) => void;

/** A JSON (or, given a string, raw) answer with this status. */
export const reply =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

export interface AuthServerDouble {
  /** What every request is answered with (reply(200, {}) until a test says otherwise). */
  answer: Answer;
  seen: Seen[];
  port: number;
  config: (path?: string) => AuthServerConfig;
  close: () => Promise<void>;
}

export async function startAuthServer(): Promise<AuthServerDouble> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body, remotePort: req.socket.remotePort };
      double.seen.push(entry);
      double.answer(entry, res);
    });
  });
  const double: AuthServerDouble = {
    answer: reply(200, {}),
    seen: [],
    port: 0,
    config: (path = '/base') => ({
      name: 'default',
      url: `http://127.0.0.1:${double.port}${path}`,
      clientId: 'client 1',
      clientSecret: 's3cret',
      loginPath: '/dialog/authorize',
      exchangeCodePath: '/oauth/token',
      userPath: '/api/userinfo',
      logoutPath: '/logout',
      afterLoginRedirectUri: undefined,
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  double.port = (server.address() as AddressInfo).port;
  return double;
}
