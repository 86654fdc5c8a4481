import { setImmediate } from 'node:timers';

/** At most this many turns of the event loop are spent dropping: an input that never stops is then asked anyway. */
const MAX_TURNS = 64;

/**
 * Reads and drops what was typed while no question was shown, before the next is shown:
 * a stray `y⏎` (an impatient second Enter, a reply to the model) must not approve the next
 * question, which may be `rm -rf ~`, nor an `a⏎` approve it always. Between questions
 * nobody reads the input (a reader would keep the process alive), so what was typed waits
 * in the stream's buffer and the terminal's; here the input flows, its data dropped, until
 * a turn of the event loop (a poll of the terminal included) brings nothing more. The same
 * holds for any input, a pipe too: what it held before the question answers nothing.
 * The input is left paused, as it was.
 *
 * @returns `true` when the input ended meanwhile (nothing can answer any more).
 */
export async function dropTypedAhead(input: NodeJS.ReadableStream): Promise<boolean> {
  let heard = false;
  let ended = false;
  const drop = (): void => {
    heard = true;
  };
  const end = (): void => {
    ended = true;
  };
  input.on('data', drop);
  input.once('end', end);
  input.resume();
  try {
    // Two turns at least: a question asked from an I/O callback gets this turn's check phase
    // before any poll of the input; the next turn polls it, and reads what the terminal holds.
    for (let turns = 0; !ended && turns < MAX_TURNS && (turns < 2 || heard); turns += 1) {
      heard = false;
      // node:timers, not the global: a test's fake timers must not hold a question back
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    input.removeListener('data', drop);
    input.removeListener('end', end);
    input.pause();
  }
  return ended;
}
