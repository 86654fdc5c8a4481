import type { JsonObject, JsonValue } from '../../../src/events/json.js';
import { DEFAULT_CHUNK_SIZE, splitArguments, splitText, type ReplyContext } from './reply-context.js';
import type { FakeReply, FakeRequestBody } from './types.js';
import { finishReasonOf, usageOf } from './completion-encoding.js';
import { toolCallArguments, toolCallId } from './tool-call-arguments.js';

type Delta = Record<string, JsonValue>;

/** The deltas of one reply: thinking, then text, then each tool call's fragments. */
function deltasOf(reply: FakeReply, context: ReplyContext): Delta[] {
  const size = reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const deltas: Delta[] = [];
  for (const piece of splitText(reply.thinking ?? '', size)) deltas.push({ reasoning_content: piece });
  for (const piece of splitText(reply.text ?? '', size)) deltas.push({ content: piece });
  (reply.toolCalls ?? []).forEach((call, position) => {
    // OpenAI's first fragment of a call names it with empty arguments; later ones carry
    // only the index and an arguments fragment.
    const id = toolCallId(call, context.requestIndex, position);
    deltas.push({
      tool_calls: [{ index: position, id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const fragment of splitArguments(toolCallArguments(call), size)) {
      deltas.push({ tool_calls: [{ index: position, function: { arguments: fragment } }] });
    }
  });
  if (deltas.length === 0) deltas.push({ content: '' });
  const first = deltas[0] as Delta;
  const hasText = (reply.text ?? '') !== '' || (reply.toolCalls ?? []).length === 0;
  deltas[0] = { role: 'assistant', content: hasText ? '' : null, ...first };
  return deltas;
}

/**
 * The `chat.completion.chunk` objects of a streamed reply, in order: the deltas, a chunk
 * with the finish reason and an empty delta, then (when the request asked for
 * `stream_options.include_usage`) a chunk with `usage` and empty `choices`. As OpenAI does,
 * every other chunk then carries `usage: null`.
 *
 * @example
 * ```ts
 * encodeChunks({ text: 'hi' }, { messages: [] }, { requestIndex: 0, model: 'm', created: 0, includeUsage: true });
 * ```
 */
export function encodeChunks(reply: FakeReply, body: FakeRequestBody, context: ReplyContext): JsonObject[] {
  const base: Record<string, JsonValue> = {
    id: `chatcmpl-fake-${context.requestIndex}`,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: 'fp_fake',
  };
  if (context.includeUsage) base['usage'] = null;
  const choice = (delta: Delta, finishReason: string | null): JsonObject => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = deltasOf(reply, context).map((delta) => choice(delta, null));
  chunks.push(choice({}, finishReasonOf(reply)));
  const usage = context.includeUsage ? usageOf(body, reply) : undefined;
  if (usage) chunks.push({ ...base, choices: [], usage });
  return chunks;
}
