/**
 * Runs `work` while a 5 ms timer beats, and returns its value with the longest gap between
 * two beats: how long something held the event loop meanwhile (a loaded machine adds a few
 * seconds, so assert far above that).
 *
 * @example
 * ```ts
 * const { value: events, longest } = await withLongestLoopGap(collect(engine.stream('go')));
 * expect(longest).toBeLessThan(15_000);
 * ```
 */
export async function withLongestLoopGap<T>(work: Promise<T>): Promise<{ value: T; longest: number }> {
  let last = Date.now();
  let longest = 0;
  const heart = setInterval(() => {
    longest = Math.max(longest, Date.now() - last);
    last = Date.now();
  }, 5);
  const value = await work.finally(() => {
    clearInterval(heart);
    // The stretch after the last beat counts too: work that ends in one long synchronous run
    // would otherwise show no gap at all.
    longest = Math.max(longest, Date.now() - last);
  });
  return { value, longest };
}
