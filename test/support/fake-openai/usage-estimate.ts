import type { FakeReply, FakeRequestBody, FakeUsage } from './types.js';
import { toolCallArguments } from './tool-call-arguments.js';

/** Roughly four characters per token, like OpenAI's rule of thumb; at least one token. */
function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * A deterministic usage estimate: prompt tokens from the request's messages and tools,
 * completion tokens from the reply's thinking, text and tool-call arguments.
 *
 * @example
 * ```ts
 * estimateUsage({ messages: [{ role: 'user', content: 'hi' }] }, { text: 'hello' });
 * // { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 }
 * ```
 */
export function estimateUsage(body: FakeRequestBody, reply: FakeReply): FakeUsage {
  const prompt = tokensOf(JSON.stringify(body.messages ?? []) + JSON.stringify(body.tools ?? []));
  const output =
    (reply.thinking ?? '') +
    (reply.text ?? '') +
    (reply.toolCalls ?? []).map((call) => call.name + toolCallArguments(call)).join('');
  const completion = tokensOf(output);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
