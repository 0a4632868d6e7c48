/**
 * Request bodies (CONTRACT "Requests"): JSON only, at most 256 KiB. An empty body is "no body" (DELETE,
 * the argument vote toggle, anonymize); otherwise the content type must be JSON (415) and the JSON
 * well formed (400). JSON.parse does the parsing; the rules around it are ours, so this stays small
 * instead of wrapping @middy/http-json-body-parser (whose 422 and missing size limit differ from CONTRACT).
 */
import { badRequest, payloadTooLarge, unsupportedMediaType } from '#lib/http/errors';

export const MAX_BODY_BYTES = 256 * 1024;
const MAX_DEPTH = 64;

export function parseJsonBody(
  raw: string | undefined | null,
  isBase64Encoded: boolean | undefined,
  contentType: string | undefined,
): unknown {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) throw payloadTooLarge();
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(mediaType)) {
    throw unsupportedMediaType();
  }
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (depthOf(parsed) > MAX_DEPTH) throw badRequest(`Request body is nested deeper than ${MAX_DEPTH} levels`);
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
