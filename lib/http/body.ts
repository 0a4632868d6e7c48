/**
 * Request bodies (CONTRACT "Requests"): JSON only, at most 256 KiB. An empty body is "no body" (DELETE,
 * the argument vote toggle, anonymize); otherwise the content type must be JSON (415) and the JSON
 * well formed (400). JSON.parse does the parsing; the rules around it are ours, so this stays small
 * instead of wrapping @middy/http-json-body-parser (whose 422 and missing size limit differ from CONTRACT).
 */
import { badRequest, payloadTooLarge, unsupportedMediaType, validationError } from '#lib/errors';
import { malformedTextPaths, reservedKeyPaths } from '#lib/validation/reserved-keys';

export const MAX_BODY_BYTES = 256 * 1024;
const MAX_DEPTH = 64;

// The reserved-key rule is shared with the auth-server answers (lib/validation/reserved-keys.ts).
export { reservedKeyPaths } from '#lib/validation/reserved-keys';

/**
 * @param raw the event's body: a string from API Gateway. serverless-offline hands over the parsed
 *   value instead when a JSON body is falsy (`false`, `0`), so a number or boolean is taken as that JSON.
 */
export function parseJsonBody(
  raw: unknown,
  isBase64Encoded: boolean | undefined,
  contentType: string | undefined,
  /** The route's own media type (a merge patch): then only that one is taken. */
  only?: string,
): unknown {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw badRequest('Request body is not valid JSON');
  const source = String(raw);
  const text = isBase64Encoded ? Buffer.from(source, 'base64').toString('utf8') : source;
  if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) throw payloadTooLarge();
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (only !== undefined ? mediaType !== only : mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(mediaType)) {
    throw unsupportedMediaType(`Request body must be ${only ?? 'application/json'}`);
  }
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (depthOf(parsed) > MAX_DEPTH) throw badRequest(`Request body is nested deeper than ${MAX_DEPTH} levels`);
  const reserved = reservedKeyPaths(parsed);
  if (reserved.length > 0) throw validationError(reserved, 'Invalid body: reserved object keys');
  const malformed = malformedTextPaths(parsed);
  if (malformed.length > 0) throw validationError(malformed, 'Invalid body: text that is not well-formed UTF-16');
  return parsed;
}

/** Iterative, so hostile deeply nested JSON cannot overflow the stack of later recursive code. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) max = depth;
    if (max > MAX_DEPTH) return max;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}
