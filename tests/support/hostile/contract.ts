/**
 * The CONTRACT error body, checked strictly: a 4xx (never a 5xx), `{status, error, message}` plus an
 * optional `details` array of exactly `{path, message}`, `status` equal to the HTTP status, `error` the
 * CONTRACT name for that status, JSON content type, and nothing in it that shows internals (stack
 * frames, SDK or JavaScript error names, DynamoDB expressions or key prefixes, file paths, secrets).
 */
import type { Answer } from '#tests/support/hostile/send';

/** CONTRACT "Responses" error table (415 is named by the foundation; CONTRACT gives it no name). */
const ERROR_NAMES: Record<number, readonly string[]> = {
  400: ['BadRequest', 'ValidationError'],
  401: ['Unauthorized'],
  403: ['Forbidden'],
  404: ['NotFound'],
  409: ['Conflict'],
  413: ['PayloadTooLarge'],
  415: ['UnsupportedMediaType'],
};

/** What an answer must never show. Each names what it guards against. */
const LEAKS: Array<[string, RegExp]> = [
  ['a stack frame', /\bat\s+(?:async\s+)?[\w$.<>[\]]+\s+\(|\bat\s+file:|\bat\s+node:/],
  ['a source file position', /\.(?:ts|js|mjs|cjs):\d+/],
  ['a file path', /node_modules|\/work\/|\/var\/task|\/home\/|\/tmp\//],
  ['a JavaScript error name', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|AggregateError)\b/],
  ['a JavaScript failure text', /Cannot read propert|is not a function|is not iterable|undefined is not|Maximum call stack|Unexpected token|in JSON at position/],
  ['a DynamoDB error', /ValidationException|ConditionalCheckFailed|TransactionCanceled|TransactionConflict|ResourceNotFound|ProvisionedThroughput|ItemCollectionSizeLimit|ThrottlingException|InternalServerError|SerializationException/],
  ['a DynamoDB expression', /ExpressionAttribute|KeyConditionExpression|ExclusiveStartKey|LastEvaluatedKey|ConditionExpression|UpdateExpression|\bTransactItems\b/i],
  ['a table key', /\b(?:SITE|IDEA|ARTICLE|ARG|BALLOT|TALLY|USER|USERID|EXTUSER|SIGNUP|SIGNUPEMAIL|SIGNUPTOKEN|IDEMP|COUNTER)#/],
  ['an AWS SDK detail', /@aws-sdk|\$metadata|\$fault|httpStatusCode|DynamoDB/],
  ['an object dump', /\[object Object\]/],
];

function secrets(): string[] {
  const values = [process.env.JWT_SECRET, ...(process.env.API_SERVICE_TOKENS ?? '').split(',')];
  return values.filter((v): v is string => typeof v === 'string' && v.length >= 8);
}

export interface ContractExpectation {
  /** The exact status expected, or the set of acceptable ones; default any 4xx. */
  status?: number | readonly number[];
}

/** Returns a list of violations (empty when the answer is a CONTRACT error body). */
function contractViolations(answer: Answer, expected: ContractExpectation = {}): string[] {
  const problems: string[] = [];
  const { status } = answer;
  if (status >= 500) problems.push(`a ${status} (never a 5xx for client input)`);
  else if (status < 400) problems.push(`a ${status} where a 4xx was expected`);
  if (expected.status !== undefined) {
    const allowed = typeof expected.status === 'number' ? [expected.status] : expected.status;
    if (!allowed.includes(status)) problems.push(`status ${status}, expected ${allowed.join(' or ')}`);
  }
  if (!/^application\/json\b/.test(answer.headers['content-type'] ?? '')) {
    problems.push(`content-type ${answer.headers['content-type'] ?? '(none)'}`);
  }
  for (const [what, pattern] of LEAKS) {
    if (pattern.test(answer.text)) problems.push(`the body shows ${what}: ${pattern}`);
  }
  for (const secret of secrets()) {
    if (answer.text.includes(secret)) problems.push('the body shows a secret');
  }

  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    problems.push('the body is not JSON');
    return problems;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.push('the body is not a JSON object');
    return problems;
  }
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => !['status', 'error', 'message', 'details'].includes(k));
  if (extra.length > 0) problems.push(`unexpected keys ${extra.join(', ')}`);
  if (record.status !== status) problems.push(`body status ${String(record.status)} differs from HTTP status ${status}`);
  const names = ERROR_NAMES[status];
  if (typeof record.error !== 'string' || !names?.includes(record.error)) {
    problems.push(`error ${JSON.stringify(record.error)} is not the CONTRACT name for ${status}`);
  }
  if (typeof record.message !== 'string' || record.message.length === 0) problems.push('message is not a non-empty string');
  if (record.details !== undefined) {
    if (!Array.isArray(record.details)) problems.push('details is not an array');
    else {
      for (const [i, detail] of record.details.entries()) {
        const d = detail as Record<string, unknown>;
        const ok =
          typeof d === 'object' &&
          d !== null &&
          Object.keys(d).length === 2 &&
          typeof d.path === 'string' &&
          typeof d.message === 'string';
        if (!ok) problems.push(`details[${i}] is not {path, message}: ${JSON.stringify(detail)}`);
      }
    }
  }
  // CONTRACT "Decided details": every ValidationError carries details.
  if (record.error === 'ValidationError' && (!Array.isArray(record.details) || record.details.length === 0)) {
    problems.push('a ValidationError without details');
  }
  return problems;
}

/** Throws (failing the property) with the request and the answer when the answer breaks the contract. */
export function assertContractError(answer: Answer, expected: ContractExpectation = {}, request?: unknown): void {
  const problems = contractViolations(answer, expected);
  if (problems.length === 0) return;
  const shown = answer.text.length > 600 ? `${answer.text.slice(0, 600)}... (${answer.text.length} chars)` : answer.text;
  throw new Error(
    `Not a CONTRACT 4xx: ${problems.join('; ')}\n  answer: ${answer.status} ${shown}` +
      (request === undefined ? '' : `\n  request: ${describe(request)}`),
  );
}

/** A short description of a request (huge strings cut), for failure messages. */
export function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v: unknown) =>
      typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}...(${v.length} chars)` : v,
    );
  } catch {
    text = String(value);
  }
  return text.length > 1500 ? `${text.slice(0, 1500)}...` : text;
}
