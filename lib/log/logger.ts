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
import { inspect } from 'node:util';
import { env, type LogLevel } from '#lib/config/env';

export type LogFields = Record<string, unknown>;
type Method = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Where a line goes: the runtime's console on Lambda (JSON format), else one JSON line of our own. */
export type LogSink = (method: Method, line: LogFields) => void;

const RANK: Record<LogLevel, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, CRITICAL: 5, SILENT: 6 };
const METHOD_RANK: Record<Method, number> = { debug: RANK.DEBUG, info: RANK.INFO, warn: RANK.WARN, error: RANK.ERROR };

/**
 * An Error as plain fields: JSON.stringify would write `{}` for it (name, message and stack are not
 * enumerable). Own fields (CorruptRecordError's kind, key, problem) and the cause come along.
 */
function errorFields(err: Error): LogFields {
  const own: LogFields = { ...err };
  return {
    ...own,
    name: err.name,
    message: err.message,
    stack: err.stack,
    ...(err.cause === undefined ? {} : { cause: err.cause instanceof Error ? errorFields(err.cause) : err.cause }),
  };
}

function lineOf(message: string, fields: LogFields | undefined): LogFields {
  const line: LogFields = { message };
  for (const [key, value] of Object.entries(fields ?? {})) line[key] = value instanceof Error ? errorFields(value) : value;
  return line;
}

/**
 * JSON, or (a field JSON cannot hold: a cycle, a BigInt) Node's own rendering of it, as Lambda's runtime
 * falls back too: a log line must never fail the request that writes it.
 */
function serialise(line: LogFields): string {
  try {
    return JSON.stringify(line);
  } catch {
    return inspect(line, { depth: 4, breakLength: Infinity });
  }
}

/** Lambda's runtime (LogFormat JSON): one console call with one object is one JSON line under the request id. */
export const lambdaConsoleSink: LogSink = (method, line) => console[method](line);

/** Outside Lambda: one JSON line per call, errors and warnings to stderr as console would send them. */
export const jsonLineSink: LogSink = (method, line) => {
  const text = `${serialise({ timestamp: new Date().toISOString(), level: method.toUpperCase(), ...line })}\n`;
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
