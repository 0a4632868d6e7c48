/**
 * Keeps (instead of writing) every line a test's code logs: console calls and anything written to
 * stdout or stderr (the logger writes its JSON lines there outside Lambda), until the returned
 * function is called. For tests that read what was logged, e.g. that no secret ever is.
 */
import { vi } from 'vitest';

export function captureLogs(into: string[]): () => void {
  const spies = (['debug', 'info', 'warn', 'error', 'log'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      into.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    }),
  );
  const writes = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array) => {
      into.push(String(chunk));
      return true;
    }) as typeof stream.write;
    return () => (stream.write = original);
  });
  return () => {
    for (const spy of spies) spy.mockRestore();
    for (const undo of writes) undo();
  };
}
