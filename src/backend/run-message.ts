/**
 * The reading of a runs-channel message's text, before it is applied (runs-channel.ts): what
 * is no message at all is said, as every channel's bad messages are (`badMessagesOn`).
 *
 * @module
 */
import type { RunMessage } from './runs-channel.js';
import { messageObject } from './stored-object.js';

/** What skipping a runs-channel message means, as its warning says. @internal */
export const RUNS_SKIPPED = "The copies of other engines' runs were kept as they were, and no run was cancelled or answered for it";

const OPS: ReadonlySet<unknown> = new Set(['put', 'forget', 'cancel', 'answer', 'answered']);

/**
 * Reads a message of the runs channel: one of the ops an engine sends, or the problem found
 * (not JSON, not an object, an op no engine sends). Its fields are checked as it is applied
 * (`applyRunMessage`), each against Redis: anyone with access to the Redis can publish there.
 *
 * @example
 * ```ts
 * readRunMessage('{"op":"forget","runId":"run_1"}'); // { message }
 * readRunMessage('garbage'); // { problem: 'it is not JSON' }
 * ```
 *
 * @internal
 */
export function readRunMessage(text: string): { readonly message: RunMessage } | { readonly problem: string } {
  const read = messageObject(text);
  if ('problem' in read) return read;
  const parsed = read.object;
  if (!OPS.has(parsed['op'])) return { problem: 'its "op" is not one of put, forget, cancel, answer, answered' };
  return { message: parsed as unknown as RunMessage };
}
