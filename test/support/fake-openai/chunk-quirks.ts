import type { JsonObject, JsonValue } from '../../../src/events/json.js';
import type { FakeReply } from './types.js';

/**
 * Bends well-formed `chat.completion.chunk`s into the shapes some OpenAI-compatible servers
 * send, as the reply asks: tool-call fragments without `index` (`omitToolCallIndex`), a
 * finish chunk whose choice has no `delta` (`omitFinishDelta`). Returns new objects; a
 * reply that asks for neither gets its chunks back unchanged.
 *
 * @example
 * ```ts
 * applyChunkQuirks(encodeChunks(reply, body, context), { ...reply, omitFinishDelta: true });
 * ```
 */
export function applyChunkQuirks(chunks: JsonObject[], reply: FakeReply): JsonObject[] {
  if (!reply.omitToolCallIndex && !reply.omitFinishDelta) return chunks;
  return chunks.map((chunk) => {
    const choice = (chunk['choices'] as JsonObject[] | undefined)?.[0];
    if (!choice) return chunk;
    const next: Record<string, JsonValue> = { ...choice };
    const delta = choice['delta'] as JsonObject;
    if (reply.omitFinishDelta && choice['finish_reason'] !== null) delete next['delta'];
    else if (reply.omitToolCallIndex && Array.isArray(delta['tool_calls'])) {
      const fragments = (delta['tool_calls'] as JsonObject[]).map(({ index: _index, ...rest }) => rest);
      next['delta'] = { ...delta, tool_calls: fragments };
    }
    return { ...chunk, choices: [next] };
  });
}
