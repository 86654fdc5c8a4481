import type { ModelFinish, ModelToolCall } from './chat-model.js';

/**
 * A server's tool calls of one message, each with an id of its own: an id the server gave
 * once is kept byte for byte; a missing one becomes `call_<n>` (n: its position), a repeated
 * one gets `_2`, `_3`... — in both cases the first such name no other call of the message
 * has. Every result must name its call, and the session's repair keeps only the first result
 * of an id, so two calls sharing one would lose a result and change the stored history (and
 * with it the cached prompt prefix) at every load.
 *
 * @example
 * ```ts
 * withUniqueIds([{ id: 'a', name: 'x', arguments: '{}' }, { id: 'a', name: 'x', arguments: '{}' }]);
 * // ids 'a' and 'a_2'
 * ```
 */
export function withUniqueIds(calls: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly arguments: string }>): ModelToolCall[] {
  // Every id the server gave, so a name made here never takes one a later call holds.
  const taken = new Set(calls.flatMap((c) => (c.id ? [c.id] : [])));
  const seen = new Set<string>();
  return calls.map((call, i) => {
    let id = call.id;
    if (!id || seen.has(id)) {
      const base = id || `call_${i}`;
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
      taken.add(id);
    }
    seen.add(id);
    return { id, name: call.name, arguments: call.arguments };
  });
}

/**
 * A model's finish with every tool call under an id of its own: the finish itself when its
 * ids are already distinct and non-empty (the usual case, no copy), else a copy whose calls
 * went through {@link withUniqueIds}. The agent applies it to every model's answer, since a
 * custom `ChatModel` (or a script) may repeat an id as a server can.
 *
 * @example
 * ```ts
 * withOwnIds({ type: 'finish', text: '', toolCalls: [a, a] }).toolCalls.map((c) => c.id); // ['a', 'a_2']
 * ```
 */
export function withOwnIds(finish: ModelFinish): ModelFinish {
  const calls = finish.toolCalls;
  if (calls.length === 0 || (calls.length === 1 && calls[0]!.id !== '')) return finish;
  const ids = new Set<string>();
  for (const call of calls) {
    if (call.id === '' || ids.has(call.id)) return { ...finish, toolCalls: withUniqueIds(calls) };
    ids.add(call.id);
  }
  return finish;
}
