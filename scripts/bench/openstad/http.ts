/**
 * One timed HTTP call, the same way for both sides: Node's fetch (undici, which keeps connections
 * alive), the body read to its end inside the timing (a client has the answer only then), and the
 * status checked outside it, so a wrong answer stops the run instead of being timed.
 */
export interface Request {
  method?: 'GET' | 'POST';
  path: string;
  /** Sent as `X-Authorization`, the header both APIs read (a JWT is given with its `Bearer ` prefix). */
  auth?: string;
  body?: unknown;
  status: number;
}

interface Answer {
  ms: number;
  text: string;
}

export async function send(base: string, request: Request): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.auth) headers['x-authorization'] = request.auth;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method: request.method ?? 'GET', headers };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  const t0 = performance.now();
  const response = await fetch(`${base}${request.path}`, init);
  const text = await response.text();
  const ms = performance.now() - t0;
  if (response.status !== request.status) {
    throw new Error(`${init.method} ${base}${request.path}: ${response.status}, expected ${request.status}: ${text.slice(0, 300)}`);
  }
  return { ms, text };
}

export const jsonOf = <T>(answer: Answer): T => JSON.parse(answer.text) as T;
