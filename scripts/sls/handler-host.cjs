/**
 * The local stack's Lambda runtime: a pool of worker threads (./handler-host-worker.cjs) that run the
 * handlers the way Lambda scales a function out, in place of serverless-offline's one worker thread
 * per request in flight (each loading tsx, the AWS SDK and lib/ again: about 0.6 s of CPU and 50 MB).
 *
 * - An instance of a function is its own module graph in one thread (the function's own module
 *   state: its DynamoDB client, its caches), as each Lambda execution environment has its own. Two
 *   functions never share a module instance, so a cache one fills is never seen by another.
 * - An instance runs one invocation at a time, as Lambda's do. A request goes to an idle instance of
 *   its function (a warm one first), else to a thread that has none yet (a cold start there), else it
 *   waits for the first instance of its function to free up. So a function scales out to one instance
 *   per thread, and the threads, sized to the machine, run them side by side.
 * - `reload()` (a source file changed) retires every thread: later invocations start fresh threads,
 *   so they load the new code; a retired thread ends once its invocations have answered.
 * - The host keeps the function timeout, not serverless-offline (`noTimeout` in serverless.yml: its
 *   timer starts with the request, so a cold start or a wait for a free instance on a busy machine
 *   became a 504). As Lambda counts it, the timeout starts once the function's modules are loaded
 *   (the cold start has a limit of its own, in quiet-machine time: scripts/machine-load.ts). An
 *   invocation past it is answered `[504]` (API Gateway's 504, scripts/sls/api-gateway-fidelity.cjs)
 *   and retires its thread, as Lambda ends that execution environment (a handler stuck in a loop
 *   would otherwise hold an instance forever); a cold start past Lambda's init limit does too.
 */
'use strict';
const { Worker } = require('node:worker_threads');
const { availableParallelism, loadavg } = require('node:os');
const { join } = require('node:path');

const WORKER = join(__dirname, 'handler-host-worker.cjs');
/** How much later than the host's timer the handler's own deadline is. */
const GRACE_MS = 1_000;
/**
 * Lambda's limit for a cold start (the function's modules loading), which its timeout does not
 * count, as a quiet machine spends it: on a busy machine (load above one per core) loading takes
 * longer, and the limit with it (scripts/machine-load.ts says the same for the tests).
 */
const INIT_LIMIT_MS = 10_000;
/** How many times slower than on an idle machine work runs now (scripts/machine-load.ts slowdown()). */
const slowdown = () => Math.max(1, loadavg()[0] / availableParallelism());

/**
 * Threads in the pool: `LOCAL_LAMBDA_WORKERS`, else one per core the machine offers, at least 2 (so
 * a request that waits on a slow call never holds up the others of its function) and at most 8.
 */
function poolSize(env = process.env) {
  const set = Number(env.LOCAL_LAMBDA_WORKERS);
  if (Number.isInteger(set) && set > 0) return set;
  return Math.min(8, Math.max(2, availableParallelism()));
}

class HandlerHost {
  /** @param {{ env: Record<string, string>, size?: number }} options the Lambda environment of every function; threads in the pool */
  constructor({ env, size = poolSize() }) {
    this.env = env;
    this.size = size;
    /** Threads that take new invocations. */
    this.threads = [];
    /** Invocations waiting for an instance of their function, in arrival order. */
    this.queue = [];
    this.nextId = 0;
  }

  /**
   * Starts the first thread and loads `file` for the function `exportName` there, ahead of its first
   * invocation (the readiness probe's function, while serverless-offline still sets up its routes).
   */
  prewarm(file, exportName) {
    const thread = this.threads[0] ?? this.start();
    thread.worker.postMessage({ preload: { instance: `${file}#${exportName}`, file } });
  }

  /** A function serverless-offline's in-process runner can call as the handler `exportName` of `file`. */
  handler(file, exportName) {
    return (event, context) => this.invoke(file, exportName, event, context);
  }

  invoke(file, name, event, context) {
    // The function timeout (serverless-offline's context counts it down from now; the host counts it
    // from the handler's start instead, so it is read before any wait).
    const timeoutMs = context.getRemainingTimeInMillis();
    return new Promise((resolve, reject) => {
      this.queue.push({ fn: `${file}#${name}`, file, name, event, context, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Starts every waiting invocation that has an instance free, oldest first. */
  dispatch() {
    for (const call of [...this.queue]) {
      const thread = this.threadFor(call.fn);
      if (!thread) continue;
      this.queue.splice(this.queue.indexOf(call), 1);
      this.run(thread, call);
    }
  }

  /** A thread whose instance of `fn` is idle (warm first, then the least busy), or a new one while the pool has room. */
  threadFor(fn) {
    const free = this.threads.filter((t) => !t.busy.has(fn));
    const warm = free.filter((t) => t.warm.has(fn));
    const pick = (list) => list.reduce((best, t) => (best === undefined || t.pending.size < best.pending.size ? t : best), undefined);
    if (warm.length) return pick(warm);
    // A cold start in a thread that is already up costs the function's own modules only; a new
    // thread costs tsx and the SDK too, so it is started only when every thread is busy with `fn`.
    if (free.length) return pick(free);
    if (this.threads.length < this.size) return this.start();
    return undefined;
  }

  run(thread, call) {
    const id = ++this.nextId;
    const { fn, file, name, event, context, timeoutMs } = call;
    const { done: _d, fail: _f, succeed: _s, getRemainingTimeInMillis: _g, ...data } = context;
    const limit = (ms, why) => {
      const timer = setTimeout(() => {
        this.settle(thread, id);
        this.retire(thread);
        call.reject(new Error(`${why}; its thread was ended`));
      }, ms);
      timer.unref();
      return timer;
    };
    const pending = { ...call, timer: limit(INIT_LIMIT_MS * slowdown(), `The function's modules took longer to load than Lambda allows a cold start`) };
    // Once the modules are loaded (the worker says so), the function's own timeout runs. The
    // handler's own deadline (context.getRemainingTimeInMillis) is a little later, so that Middy's
    // early timeout (a 500) never answers before the host's 504.
    pending.started = () => {
      clearTimeout(pending.timer);
      pending.timer = limit(timeoutMs, `[504] - Lambda timeout: the handler ran past its timeout (${timeoutMs} ms)`);
    };
    thread.busy.add(fn);
    thread.pending.set(id, pending);
    // Only the context's data crosses threads; the worker adds the runtime's methods again.
    thread.worker.postMessage({ id, instance: fn, file, name, event, context: data, timeout: timeoutMs + GRACE_MS });
  }

  start() {
    const worker = new Worker(WORKER, { env: this.env });
    const thread = { worker, pending: new Map(), busy: new Set(), warm: new Set(), retired: false };
    this.threads.push(thread);
    worker.unref();
    worker.on('message', ({ id, started, result, error }) => {
      if (started) return thread.pending.get(id)?.started();
      const call = this.settle(thread, id);
      if (!call) return;
      thread.warm.add(call.fn);
      if (error !== undefined) call.reject(Object.assign(new Error(error.message), { name: error.name, stack: error.stack ?? `${error.name}: ${error.message}` }));
      else call.resolve(result);
      if (thread.retired && thread.pending.size === 0) void worker.terminate();
      this.dispatch();
    });
    worker.on('error', (err) => this.fail(thread, err));
    worker.on('exit', (code) => this.fail(thread, new Error(`The handler thread stopped (exit code ${code})`)));
    return thread;
  }

  /** Takes invocation `id` off its thread and frees its instance; the call, if it was still pending. */
  settle(thread, id) {
    const call = thread.pending.get(id);
    if (!call) return undefined;
    thread.pending.delete(id);
    thread.busy.delete(call.fn);
    clearTimeout(call.timer);
    return call;
  }

  /** Ends the thread's pending invocations with `err`; waiting ones go to the other threads. */
  fail(thread, err) {
    this.threads = this.threads.filter((t) => t !== thread);
    thread.retired = true;
    for (const id of [...thread.pending.keys()]) this.settle(thread, id).reject(err);
    this.dispatch();
  }

  /** New invocations go to other threads; this one ends when its last invocation has answered. */
  retire(thread) {
    this.threads = this.threads.filter((t) => t !== thread);
    thread.retired = true;
    if (thread.pending.size === 0) void thread.worker.terminate();
    this.dispatch();
  }

  reload() {
    for (const thread of [...this.threads]) this.retire(thread);
  }

  async close() {
    const threads = this.threads;
    this.threads = [];
    for (const call of this.queue.splice(0)) call.reject(new Error('The handler host was closed'));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}

module.exports = { HandlerHost, poolSize };
