import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import type { FakeOpenAIServer } from './fake-openai-server.js';

/**
 * An {@link OpenAIChatModel} pointed at the fake server the way users build one (a `baseURL`
 * and a key: the client is rxharness's own, on its node:http transport). No retries unless asked.
 */
export function openAIModelFor(server: FakeOpenAIServer, options: { maxRetries?: number; model?: string } = {}): OpenAIChatModel {
  return new OpenAIChatModel({ model: options.model ?? 'fake-model', baseURL: server.baseURL, apiKey: 'test', maxRetries: options.maxRetries ?? 0 });
}
