import type { ModelToolCall } from './chat-model.js';
import { withUniqueIds } from './tool-call-ids.js';
import { argumentsText } from './arguments-text.js';

/** A tool call being assembled from its streamed fragments. */
export interface PartialCall {
  id: string;
  name: string;
  args: string;
}

/** One streamed tool-call fragment, as servers send it (`index` is missing on some). */
export interface ToolCallFragment {
  readonly index?: number;
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/**
 * Adds streamed fragments to `calls`. A fragment belongs to the call at its `index`: the
 * first names it (id, name), the rest carry pieces of the arguments. Some servers send no
 * `index`; then a fragment with a new id, or with no id but another tool's name, starts the
 * next call, and any other fragment continues the last one.
 */
export function mergeToolCalls(calls: PartialCall[], fragments: readonly ToolCallFragment[]): void {
  for (const f of fragments) {
    const at = typeof f.index === 'number' ? f.index : positionOf(calls, f);
    const call = (calls[at] ??= { id: '', name: '', args: '' });
    if (f.id) call.id = f.id;
    // Some servers repeat the name on every fragment: keep the first, never concatenate.
    if (f.function?.name && !call.name) call.name = f.function.name;
    if (f.function?.arguments) call.args += argumentsText(f.function.arguments); // some servers send the object itself
  }
}

function positionOf(calls: readonly PartialCall[], f: ToolCallFragment): number {
  const last = calls.at(-1);
  if (!last) return 0;
  const newId = !!f.id && last.id !== '' && f.id !== last.id;
  const name = f.function?.name;
  const otherTool = !f.id && !!name && last.name !== '' && name !== last.name;
  return newId || otherTool ? calls.length : calls.length - 1;
}

/** The assembled calls, in index order, each with an id of its own ({@link withUniqueIds}). */
export function finishToolCalls(calls: readonly PartialCall[]): ModelToolCall[] {
  return withUniqueIds(calls.filter((c) => c !== undefined).map((c) => ({ id: c.id, name: c.name, arguments: c.args })));
}
