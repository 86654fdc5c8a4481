import type { ModelToolCall } from './chat-model.js';
import { ModelError } from './model-error.js';
import { withUniqueIds } from './tool-call-ids.js';
import { argumentsText } from './arguments-text.js';

/** A tool call being assembled from its streamed fragments. */
export interface PartialCall {
  id: string;
  name: string;
  args: string;
  /** The `index` its fragments carry (for a server that sends none: its position). */
  readonly index: number;
}

/** One streamed tool-call fragment, as servers send it (`index` is missing on some). */
export interface ToolCallFragment {
  readonly index?: number;
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/**
 * Adds streamed fragments to `calls`, one entry per distinct call in the order they first
 * appeared (never a slot per index value: an `index` of 1,000,000,000 is one entry, not an
 * array that long). A fragment belongs to the call with its `index`: the first names it (id,
 * name), the rest carry pieces of the arguments. Some servers send no `index`; then a fragment
 * with a new id, or with no id but another tool's name, starts the next call, and any other
 * fragment continues the last one.
 *
 * Returns `false` as soon as a call beyond `max` appears (that call is in `calls`, the
 * fragments after it are not read), else `true`. An `index` that is not a whole number from 0
 * fails with a `ModelError`: such a call would otherwise be lost.
 */
export function mergeToolCalls(calls: PartialCall[], fragments: readonly ToolCallFragment[], model: string, max = Number.POSITIVE_INFINITY): boolean {
  for (const f of fragments) {
    const index = f.index;
    let call: PartialCall;
    if (typeof index === 'number') {
      // The usual fragment continues the last call: one comparison, no search.
      const last = calls[calls.length - 1];
      call = last !== undefined && last.index === index ? last : callAt(calls, index, model);
    } else {
      call = unindexedCall(calls, f);
    }
    if (f.id) call.id = f.id;
    // Some servers repeat the name on every fragment: keep the first, never concatenate.
    if (f.function?.name && !call.name) call.name = f.function.name;
    if (f.function?.arguments) call.args += argumentsText(f.function.arguments); // some servers send the object itself
    if (calls.length > max) return false;
  }
  return true;
}

/** The call with `index`, or a new one at the end; the search is over at most `max + 1` calls. */
function callAt(calls: PartialCall[], index: number, model: string): PartialCall {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new ModelError(
      `model "${model}": the server sent a tool-call fragment with index ${index} (call ${calls.length + 1} of the reply): ` +
        'an index must be a whole number from 0; the reply was abandoned, as its calls could not be told apart',
    );
  }
  for (let i = calls.length - 2; i >= 0; i--) if (calls[i]!.index === index) return calls[i]!;
  const call: PartialCall = { id: '', name: '', args: '', index };
  calls.push(call);
  return call;
}

/** The call an index-less fragment belongs to: the last one, or a new one it starts. */
function unindexedCall(calls: PartialCall[], f: ToolCallFragment): PartialCall {
  const last = calls[calls.length - 1];
  if (last !== undefined) {
    const newId = !!f.id && last.id !== '' && f.id !== last.id;
    const name = f.function?.name;
    const otherTool = !f.id && !!name && last.name !== '' && name !== last.name;
    if (!newId && !otherTool) return last;
  }
  // Past every index seen, not only the last's: a later fragment with an earlier call's index must still find that call.
  let next = 0;
  for (const c of calls) if (c.index >= next) next = c.index + 1;
  const call: PartialCall = { id: '', name: '', args: '', index: next };
  calls.push(call);
  return call;
}

/** The assembled calls, in index order, each with an id of its own ({@link withUniqueIds}). */
export function finishToolCalls(calls: readonly PartialCall[]): ModelToolCall[] {
  // Servers send their calls in index order: sorted (a copy) only when one did not.
  let ordered = true;
  for (let i = 1; i < calls.length && ordered; i++) ordered = calls[i - 1]!.index < calls[i]!.index;
  const inOrder = ordered ? calls : calls.slice().sort((a, b) => a.index - b.index);
  return withUniqueIds(inOrder.map((c) => ({ id: c.id, name: c.name, arguments: c.args })));
}
