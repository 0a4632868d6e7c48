/**
 * The one logger (lib/log/logger.ts): LOG_LEVEL decides what is written, an Error in the fields keeps
 * its message and stack, and every call is one line: one JSON line of its own off Lambda, one console
 * call with one plain object on Lambda (the runtime then writes it as one JSON line under the request id).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, jsonLineSink, lambdaConsoleSink, type LogFields, type LogSink } from '#lib/log/logger';
import type { LogLevel } from '#lib/config/env';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

function recording(level: LogLevel) {
  const lines: Array<{ method: string; line: LogFields }> = [];
  const sink: LogSink = (method, line) => lines.push({ method, line });
  return { logger: createLogger(level, sink), lines };
}

function everyMethod(logger: ReturnType<typeof createLogger>) {
  logger.debug('d');
  logger.info('i');
  logger.warn('w');
  logger.error('e');
}

/** What the stream spies received, one entry per write() call. */
function captureStreams() {
  const writes: Array<{ stream: 'stdout' | 'stderr'; text: string }> = [];
  const on = (stream: 'stdout' | 'stderr') => (chunk: string | Uint8Array) => {
    writes.push({ stream, text: String(chunk) });
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(on('stdout'));
  vi.spyOn(process.stderr, 'write').mockImplementation(on('stderr'));
  return writes;
}

describe('the level gate', () => {
  it.each([
    ['TRACE', ['d', 'i', 'w', 'e']],
    ['DEBUG', ['d', 'i', 'w', 'e']],
    ['INFO', ['i', 'w', 'e']],
    ['WARN', ['w', 'e']],
    ['ERROR', ['e']],
    ['CRITICAL', []],
    ['SILENT', []],
  ] as Array<[LogLevel, string[]]>)('at %s writes %j', (level, expected) => {
    const { logger, lines } = recording(level);
    everyMethod(logger);
    expect(lines.map((l) => l.line.message)).toEqual(expected);
  });

  it('hands each method its own level', () => {
    const { logger, lines } = recording('DEBUG');
    everyMethod(logger);
    expect(lines.map((l) => l.method)).toEqual(['debug', 'info', 'warn', 'error']);
  });
});

describe('fields', () => {
  it('sit beside the message, as given', () => {
    const { logger, lines } = recording('INFO');
    logger.info('request', { status: 404, route: 'GET /x', nested: { a: [1] } });
    expect(lines[0]!.line).toEqual({ message: 'request', status: 404, route: 'GET /x', nested: { a: [1] } });
  });

  it('keep an Error as name, message, stack, its own fields and its cause, through JSON', () => {
    const { logger, lines } = recording('ERROR');
    const cause = new TypeError('socket closed');
    const err = Object.assign(new Error('disk on fire', { cause }), { kind: 'idea', key: 'SITE#1 IDEA#2' });
    logger.error('unhandled error', { error: err });
    const written = JSON.parse(JSON.stringify(lines[0]!.line)) as { error: Record<string, unknown> };
    expect(written.error).toEqual({
      name: 'Error',
      message: 'disk on fire',
      stack: err.stack,
      kind: 'idea',
      key: 'SITE#1 IDEA#2',
      cause: { name: 'TypeError', message: 'socket closed', stack: cause.stack },
    });
    expect(written.error.stack).toContain('disk on fire');
    expect(written.error.stack).toMatch(/\n\s+at /);
  });
});

describe('off Lambda: one JSON line per call', () => {
  it('info and debug to stdout, warn and error to stderr, each one write of one line', () => {
    const writes = captureStreams();
    const logger = createLogger('DEBUG', jsonLineSink);
    logger.debug('d', { n: 1 });
    logger.info('i', { text: 'two\nlines' });
    logger.warn('w');
    logger.error('e', { error: new Error('boom') });
    vi.restoreAllMocks();
    expect(writes.map((w) => w.stream)).toEqual(['stdout', 'stdout', 'stderr', 'stderr']);
    for (const { text } of writes) {
      expect(text.endsWith('\n')).toBe(true);
      expect(text.slice(0, -1)).not.toContain('\n');
    }
    const lines = writes.map((w) => JSON.parse(w.text) as Record<string, unknown>);
    expect(lines.map((l) => [l.level, l.message])).toEqual([['DEBUG', 'd'], ['INFO', 'i'], ['WARN', 'w'], ['ERROR', 'e']]);
    expect(lines[0]).toMatchObject({ n: 1 });
    expect(lines[1]).toMatchObject({ text: 'two\nlines' });
    expect(lines[3]).toMatchObject({ error: { name: 'Error', message: 'boom', stack: expect.stringContaining('boom') } });
    for (const line of lines) expect(new Date(line.timestamp as string).toISOString()).toBe(line.timestamp);
  });
});

describe('a field JSON cannot hold', () => {
  it('a cycle or a BigInt still writes one line and never throws', () => {
    const writes = captureStreams();
    const logger = createLogger('INFO', jsonLineSink);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    expect(() => logger.info('odd', { cyclic, big: 10n })).not.toThrow();
    vi.restoreAllMocks();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.text).toContain('odd');
    expect(writes[0]!.text).toContain('10n');
    expect(writes[0]!.text.slice(0, -1)).not.toContain('\n');
  });
});

describe('on Lambda (LogFormat JSON)', () => {
  it('one console call per line, with one plain object, at the console method of its level', () => {
    const calls: Array<{ method: string; args: unknown[] }> = [];
    for (const method of ['debug', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void calls.push({ method, args }));
    }
    const writes = captureStreams();
    const logger = createLogger('DEBUG', lambdaConsoleSink);
    logger.info('request', { status: 200 });
    logger.error('unhandled error', { error: new Error('boom') });
    vi.restoreAllMocks();
    expect(writes).toEqual([]);
    expect(calls.map((c) => [c.method, c.args.length])).toEqual([['info', 1], ['error', 1]]);
    // The runtime writes a single argument as `message` of its JSON line: plain data survives as is.
    const [request, failure] = calls.map((c) => c.args[0]);
    expect(JSON.parse(JSON.stringify(request))).toEqual({ message: 'request', status: 200 });
    expect(JSON.parse(JSON.stringify(failure))).toMatchObject({ message: 'unhandled error', error: { message: 'boom', stack: expect.stringContaining('boom') } });
  });

  it('the module logger takes the console when the runtime says LogFormat JSON, its own lines otherwise', async () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const writes = captureStreams();

    vi.stubEnv('AWS_LAMBDA_LOG_FORMAT', 'JSON');
    vi.resetModules();
    (await import('#lib/log/logger')).logger.info('on lambda');
    vi.resetModules();
    vi.stubEnv('AWS_LAMBDA_LOG_FORMAT', 'Text');
    (await import('#lib/log/logger')).logger.info('elsewhere');
    vi.restoreAllMocks();

    expect(info.mock.calls).toEqual([[{ message: 'on lambda' }]]);
    expect(writes.map((w) => JSON.parse(w.text).message)).toEqual(['elsewhere']);
  });
});

describe('fields that would break a line', () => {
  it("an error whose cause loops, an object holding itself, a __proto__ key and deep nesting: one JSON line, nothing thrown", () => {
    const writes = captureStreams();
    const logger = createLogger('INFO', jsonLineSink);
    const looping = new Error('outer') as Error & { cause?: unknown };
    looping.cause = Object.assign(new Error('inner'), { cause: looping });
    const data = JSON.parse('{"__proto__": {"x": 1}, "a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}}') as Record<string, unknown>;
    expect(() => logger.error('odd', { error: looping, data })).not.toThrow();
    vi.restoreAllMocks();
    expect(writes).toHaveLength(1);
    const line = JSON.parse(writes[0]!.text) as { error: { message: string; cause: { message: string; cause: unknown } }; data: Record<string, unknown> };
    expect(line.error.message).toBe('outer');
    expect(line.error.cause.message).toBe('inner');
    expect(line.error.cause.cause).toBe('[Circular]');
    expect(Object.keys(line.data)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(line.data)).toContain('[…]');
  });
});
