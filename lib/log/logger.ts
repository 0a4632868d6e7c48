/**
 * The one structured logger (DESIGN habit 11), at the level `LOG_LEVEL` sets (lib/config/env.ts; tests
 * run silent unless it is set). Tokens and bodies are never logged.
 *
 * On Lambda the runtime does the structuring: with LoggingConfig LogFormat JSON (serverless.yml
 * `provider.logs.lambda`) it writes each one-argument console call as one JSON line with timestamp,
 * level and the invocation's requestId, the argument under `message`, and drops the levels below
 * ApplicationLogLevel. So a line here is one `console.<level>({ message, ...fields })` call, and no
 * library or middleware has to carry the request id. Elsewhere (local stack, scripts, tests) the logger
 * writes the same object itself as one JSON line, with timestamp and level beside it.
 */
import { env, type LogLevel } from '#lib/config/env';

export type LogFields = Record<string, unknown>;
type Method = 'debug' | 'info' | 'warn' | 'error';

interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Where a line goes: the runtime's console on Lambda (JSON format), else one JSON line of our own. */
export type LogSink = (method: Method, line: LogFields) => void;

const RANK: Record<LogLevel, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, CRITICAL: 5, SILENT: 6 };
const METHOD_RANK: Record<Method, number> = { debug: RANK.DEBUG, info: RANK.INFO, warn: RANK.WARN, error: RANK.ERROR };

/** How deep a field is copied into a line; deeper values are cut (a log line, not a dump). */
const MAX_DEPTH = 6;

/**
 * A field as JSON can hold it, so a log call never throws and each sink writes one JSON line: an Error
 * as its name, message, stack, own fields and cause (JSON.stringify would write `{}`: those are not
 * enumerable); a BigInt as its digits; a value met again on its own path (a cause that is the error
 * itself, an object holding itself) as '[Circular]'.
 */
function plain(value: unknown, path: readonly object[] = [], depth = 0): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value !== 'object' || value === null) return typeof value === 'function' || typeof value === 'symbol' ? String(value) : value;
  if (path.includes(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[…]';
  const inner = [...path, value];
  if (Array.isArray(value)) return value.map((entry) => plain(entry, inner, depth + 1));
  // Null prototype: a field named `__proto__` (client data can have one) stays an ordinary key.
  const out = Object.create(null) as LogFields;
  for (const [key, entry] of Object.entries(value)) out[key] = plain(entry, inner, depth + 1);
  if (value instanceof Error) {
    out['name'] = value.name;
    out['message'] = value.message;
    out['stack'] = value.stack;
    if (value.cause !== undefined) out['cause'] = plain(value.cause, inner, depth + 1);
  }
  return out;
}

function lineOf(message: string, fields: LogFields | undefined): LogFields {
  const line: LogFields = { message };
  for (const [key, value] of Object.entries(fields ?? {})) line[key] = plain(value);
  return line;
}

/** Lambda's runtime (LogFormat JSON): one console call with one object is one JSON line under the request id. */
export const lambdaConsoleSink: LogSink = (method, line) => console[method](line);

/** Outside Lambda: one JSON line per call, errors and warnings to stderr as console would send them. */
export const jsonLineSink: LogSink = (method, line) => {
  const text = `${JSON.stringify({ timestamp: new Date().toISOString(), level: method.toUpperCase(), ...line })}\n`;
  (method === 'warn' || method === 'error' ? process.stderr : process.stdout).write(text);
};

export function createLogger(level: LogLevel, sink: LogSink): Logger {
  const at = (method: Method) =>
    METHOD_RANK[method] >= RANK[level] ? (message: string, fields?: LogFields) => sink(method, lineOf(message, fields)) : () => {};
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The runtime sets AWS_LAMBDA_LOG_FORMAT from the function's LoggingConfig. */
const onLambdaJson = process.env.AWS_LAMBDA_LOG_FORMAT?.toUpperCase() === 'JSON';

export const logger: Logger = createLogger(env().logLevel, onLambdaJson ? lambdaConsoleSink : jsonLineSink);
