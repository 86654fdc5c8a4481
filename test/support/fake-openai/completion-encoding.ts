import type { JsonObject, JsonValue } from '../../../src/events/json.js';
import type { ReplyContext } from './reply-context.js';
import type { FakeReply, FakeRequestBody } from './types.js';
import { toolCallArguments, toolCallId } from './tool-call-arguments.js';
import { estimateUsage } from './usage-estimate.js';

/** The finish reason a reply ends with. */
export function finishReasonOf(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
}

/** The usage object to send (`rawUsage` as it is), or `undefined` when the reply asks for none. */
export function usageOf(body: FakeRequestBody, reply: FakeReply): JsonObject | undefined {
  if (reply.rawUsage) return { ...reply.rawUsage };
  if (reply.usage === false) return undefined;
  const usage = reply.usage ?? estimateUsage(body, reply);
  return { ...usage };
}

/**
 * A non-streaming `chat.completion` body, shaped like OpenAI's (with `reasoning_content`
 * on the message when the reply has thinking, like DeepSeek-style servers).
 *
 * @example
 * ```ts
 * encodeCompletion({ text: 'hi' }, { messages: [] }, { requestIndex: 0, model: 'm', created: 0, includeUsage: false });
 * ```
 */
export function encodeCompletion(reply: FakeReply, body: FakeRequestBody, context: ReplyContext): JsonObject {
  const calls = reply.toolCalls ?? [];
  const message: Record<string, JsonValue> = {
    role: 'assistant',
    content: reply.text ?? (calls.length > 0 ? null : ''),
    refusal: null,
  };
  if (reply.thinking !== undefined) message['reasoning_content'] = reply.thinking;
  if (calls.length > 0) {
    message['tool_calls'] = calls.map((call, position) => ({
      id: toolCallId(call, context.requestIndex, position),
      type: 'function',
      function: { name: call.name, arguments: toolCallArguments(call) },
    }));
  }
  const completion: Record<string, JsonValue> = {
    id: `chatcmpl-fake-${context.requestIndex}`,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(reply) }],
  };
  const usage = usageOf(body, reply);
  if (usage) completion['usage'] = usage;
  return completion;
}
