import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatRequest, ToolSpec } from './chat-model.js';
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
  if (request.tools?.length) body.tools = wireTools(request.tools);
  return body;
}

type WireTool = NonNullable<ChatCompletionCreateParamsStreaming['tools']>[number];

/**
 * The wire form of each spec and of each spec list, made once: a run offers the same list
 * (the same array, see `toolSpecsReader`) at every step, so its requests share one `tools`
 * array instead of each live request holding a copy. Weak: a list no run offers is dropped.
 * The bytes sent are the same as before (the same fields in the same order); frozen, since shared.
 */
const wireBySpec = new WeakMap<ToolSpec, WireTool>();
const wireByList = new WeakMap<readonly ToolSpec[], WireTool[]>();

function wireTools(specs: readonly ToolSpec[]): WireTool[] {
  let wire = wireByList.get(specs);
  if (!wire) {
    wire = specs.map((t) => {
      let one = wireBySpec.get(t);
      if (!one) wireBySpec.set(t, (one = Object.freeze({ type: 'function', function: Object.freeze({ name: t.name, description: t.description, parameters: t.parameters }) })));
      return one;
    });
    wireByList.set(specs, wire);
  }
  return wire;
}
