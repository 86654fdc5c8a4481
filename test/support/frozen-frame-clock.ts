import { performance } from 'node:perf_hooks';
import { vi } from 'vitest';

/**
 * Runs `body` with `node:perf_hooks`' `performance.now()` standing still, for tests that count
 * the writes of one turn: the SSE frame batch writes early when a frame has waited 5 ms
 * (`sse-frame-batch.ts`), and on a loaded machine a turn of 50 appends can last that long, which
 * would be a timing, not batching.
 *
 * @example
 * ```ts
 * await withFrozenFrameClock(async () => { ...; expect(counts.writes - before).toBe(1); });
 * ```
 */
export async function withFrozenFrameClock<T>(body: () => Promise<T>): Promise<T> {
  const clock = vi.spyOn(performance, 'now').mockReturnValue(performance.now());
  try {
    return await body();
  } finally {
    clock.mockRestore();
  }
}
