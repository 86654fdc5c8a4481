/**
 * A terminal for the tests of the terminal approval: an input they type into, an output they
 * read, and a wait for the `n`th question it shows.
 *
 * @module
 */
import { PassThrough } from 'node:stream';

/** A terminal the test types into and reads. */
export interface FakeTerminal {
  /** What the user types (write `y\n` to answer). */
  readonly input: PassThrough;
  /** Where the approval writes its questions. */
  readonly output: PassThrough;
  /** All that was written to the output so far. */
  text(): string;
  /** Resolves when the output shows the `n`th prompt. */
  prompts(n: number): Promise<void>;
}

/** One turn of the event loop: what was written and read in the meantime has been handled. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A new terminal; see {@link FakeTerminal}. */
export function fakeTerminal(): FakeTerminal {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const prompts = async (n: number): Promise<void> => {
    while (written.split('[y]es').length <= n) await turn();
  };
  return { input, output, text: () => written, prompts };
}

/** The options of a question that nothing cancels. */
export const live = (): { signal: AbortSignal } => ({ signal: new AbortController().signal });
