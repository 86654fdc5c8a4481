import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatRequest } from './chat-model.js';
import { settingsBody, type ModelSettings } from './model-settings.js';

/**
 * The body of a streamed chat completion request: the extra fields first (so they can never
 * override what the harness relies on), then the settings (the model's defaults, overridden
 * by the request's own; tool settings only with tools), the model, the messages as they are,
 * streaming with usage, and the tools (left out when there are none: some servers reject an
 * empty list).
 */
export function chatRequestBody(
  model: string,
  request: ChatRequest,
  extraBody: Readonly<Record<string, unknown>>,
  defaults: ModelSettings = {},
): ChatCompletionCreateParamsStreaming {
  const withTools = (request.tools?.length ?? 0) > 0;
  const body: ChatCompletionCreateParamsStreaming = {
    ...extraBody,
    ...settingsBody(request.settings ? { ...defaults, ...request.settings } : defaults, withTools),
    model,
    messages: request.messages as ChatCompletionCreateParamsStreaming['messages'],
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  return body;
}
