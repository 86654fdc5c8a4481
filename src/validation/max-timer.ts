/**
 * The longest delay, in milliseconds, a Node timer honours: 2^31 - 1, about 24.8 days.
 * `setTimeout` and `setInterval` fire a longer delay after 1 ms instead (with only a
 * `TimeoutOverflowWarning`), so a "five weeks" timeout would fire at once. Every option that
 * becomes a timer is refused above it with a message naming it (not clamped: a clamped
 * value is not the one that was asked for); the sites that arm a timer from a value no
 * option check saw (a hand-built tool's `timeoutMs`) treat a longer one as no timer.
 *
 * @example
 * ```ts
 * if (ms > MAX_TIMER_MS) throw new RangeError(`keepAliveMs must be at most ${MAX_TIMER_MS}, got ${ms}`);
 * ```
 */
export const MAX_TIMER_MS = 2_147_483_647;
