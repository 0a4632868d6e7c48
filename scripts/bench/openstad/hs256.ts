/** An HS256 JWT as `jsonwebtoken.sign(payload, secret)` makes it, which OpenStad's user middleware verifies. */
import { createHmac } from 'node:crypto';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export function signHs256(payload: Record<string, unknown>, secret: string): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ ...payload, iat: Math.floor(Date.now() / 1000) }))}`;
  return `${head}.${b64url(createHmac('sha256', secret).update(head).digest())}`;
}
