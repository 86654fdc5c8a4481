/**
 * The things a test starts (fake servers, fixtures, remotes), closed after each test in a
 * fixed order. It replaces the `let a; let b; afterEach(close b, close a)` each file wrote out.
 *
 * @module
 */
import { afterEach } from 'vitest';

/** Anything a test starts and must close. */
export interface Closable {
  /** Closes it; the test waits for it. */
  close(): unknown;
}

/**
 * Registers the `afterEach` that closes each slot of the returned object that a test filled,
 * in `order` (each awaited before the next; the first failure stops there), then empties
 * every slot. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const open = closedAfterEach<{ served: RunsServer; fake: FakeOpenAIServer }>(['served', 'fake']);
 * it('...', async () => {
 *   open.fake = await FakeOpenAIServer.start();
 *   open.served = await serveRuns({ model: openAIModelFor(open.fake) });
 * });
 * ```
 */
export function closedAfterEach<T extends { [K in keyof T]: Closable }>(order: readonly (keyof T)[]): Partial<T> {
  const open: Partial<T> = {};
  afterEach(async () => {
    for (const key of order) await open[key]?.close();
    for (const key of order) delete open[key];
  });
  return open;
}
