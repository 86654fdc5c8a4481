import OpenAI from 'openai';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import type { FakeOpenAIServer } from './fake-openai-server.js';

/**
 * An {@link OpenAIChatModel} on a real, quiet `openai` client pointed at the fake server
 * (`logLevel: 'off'`, so deliberate failures print nothing). No retries unless asked.
 */
export function openAIModelFor(server: FakeOpenAIServer, options: { maxRetries?: number; model?: string } = {}): OpenAIChatModel {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: options.maxRetries ?? 0, logLevel: 'off' });
  return new OpenAIChatModel({ model: options.model ?? 'fake-model', client });
}
