import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * The consumer of {@link toAsyncIterable} fell too far behind: more events arrived than the
 * buffer holds. The run has been unsubscribed (aborted) when this is thrown.
 *
 * @example
 * ```ts
 * try {
 *   for await (const event of toAsyncIterable(engine.stream(prompt), { bufferSize: 1000 })) await slow(event);
 * } catch (e) {
 *   if (e instanceof BufferOverflowError) console.error(`consumer too slow (limit ${e.bufferSize})`);
 * }
 * ```
 */
export class BufferOverflowError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'BUFFER_OVERFLOW';
  /** Always `'BufferOverflowError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'BufferOverflowError';

  /** @param bufferSize - The bound that was exceeded. */
  constructor(readonly bufferSize: number) {
    super(
      `More than ${bufferSize} events were waiting to be read, so the run was stopped. ` +
        'Read events faster or pass a larger bufferSize.',
    );
  }
}
