import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatMessage, ToolMessage } from './chat-message.js';
import { ModelError } from './model-error.js';

/**
 * What a chat template that takes one tool call per assistant message says when a request
 * holds several (Llama 3.1's: "This model only supports single tool-calls at once!").
 */
const SINGLE_CALLS_ONLY = /only supports single tool-calls at once/i;

/**
 * Whether `error` is a template's refusal of parallel tool calls that a request in the
 * single-call form (see {@link singleToolCallBody}) might get past: `body` is not in that
 * form yet.
 */
export function refusesParallelCalls(error: unknown, body: ChatCompletionCreateParamsStreaming): boolean {
  return error instanceof ModelError && SINGLE_CALLS_ONLY.test(error.message) && !isSingleCallForm(body);
}

/**
 * `body` for a template that takes one tool call per assistant message: `parallel_tool_calls:
 * false` (with tools), and each earlier assistant message with several calls sent as one
 * message per call, each followed by its result, so the conversation says the same thing.
 */
export function singleToolCallBody(body: ChatCompletionCreateParamsStreaming): ChatCompletionCreateParamsStreaming {
  const messages = splitToolCalls(body.messages as readonly ChatMessage[]) as ChatCompletionCreateParamsStreaming['messages'];
  return body.tools ? { ...body, messages, parallel_tool_calls: false } : { ...body, messages };
}

/** The conversation with every assistant message of several tool calls split into one message per call. */
export function splitToolCalls(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || (m.tool_calls?.length ?? 0) < 2) {
      out.push(m);
      continue;
    }
    const results = new Map<string, ToolMessage>();
    const unmatched: ToolMessage[] = [];
    while (messages[i + 1]?.role === 'tool') {
      const result = messages[++i] as ToolMessage;
      if (results.has(result.tool_call_id)) unmatched.push(result);
      else results.set(result.tool_call_id, result);
    }
    m.tool_calls!.forEach((call, index) => {
      out.push({ role: 'assistant', content: index === 0 ? m.content : null, tool_calls: [call] });
      const result = results.get(call.id);
      if (result) out.push(result);
      results.delete(call.id);
    });
    out.push(...results.values(), ...unmatched);
  }
  return out;
}

function isSingleCallForm(body: ChatCompletionCreateParamsStreaming): boolean {
  const split = (body.messages as readonly ChatMessage[]).every((m) => m.role !== 'assistant' || (m.tool_calls?.length ?? 0) < 2);
  return split && (!body.tools || body.parallel_tool_calls === false);
}
