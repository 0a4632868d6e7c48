/**
 * The three ports `npm start` listens on, checked before anything starts. A port the developer chose
 * (its variable is set) must be free: otherwise a clear error naming the variable. The API's PORT
 * must be free too (its URL is what everyone uses). The defaults of the two helpers (auth server
 * 4000, DynamoDB Local 8000) fall back to a free port, and say so: nothing outside points at them.
 */
import { createServer } from 'node:net';
import { freePort } from '../dynamo-local.ts';

export interface PortChoice {
  variable: 'PORT' | 'AUTH_SERVER_PORT' | 'DYNAMODB_PORT';
  port: number;
  requested: number;
  fellBack: boolean;
}

/** Can we listen on 127.0.0.1:port? (Also false when another program holds 0.0.0.0 or [::] there.) */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

class PortTakenError extends Error {}

function requestedPort(variable: PortChoice['variable'], fallback: number): { port: number; explicit: boolean } {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return { port: fallback, explicit: false };
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port < 1 || port > 65535) throw new PortTakenError(`${variable}=${raw} is not a port number (1-65535)`);
  return { port, explicit: true };
}

async function choose(variable: PortChoice['variable'], fallback: number, mayFallBack: boolean): Promise<PortChoice> {
  const { port, explicit } = requestedPort(variable, fallback);
  if (await portIsFree(port)) return { variable, port, requested: port, fellBack: false };
  if (explicit || !mayFallBack) {
    throw new PortTakenError(
      `${variable} ${port} is already in use (another npm start, or another program). ` +
        `Stop that program, or choose another port, e.g. ${variable}=${port + 1} npm start`,
    );
  }
  return { variable, port: await freePort(), requested: port, fellBack: true };
}

export async function choosePorts(): Promise<{ api: PortChoice; auth: PortChoice; dynamo: PortChoice }> {
  const api = await choose('PORT', 3000, false);
  const auth = await choose('AUTH_SERVER_PORT', 4000, true);
  const dynamo = await choose('DYNAMODB_PORT', 8000, true);
  return { api, auth, dynamo };
}
