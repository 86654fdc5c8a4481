import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { FakeOpenAIServer } from './fake-openai-server.js';

/** A real `openai` client pointed at the fake server, quiet (no log output on purpose errors). */
export function clientFor(server: FakeOpenAIServer, maxRetries = 0): OpenAI {
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries, logLevel: 'off' });
}

/** A minimal valid request. */
export const HELLO = { model: 'fake-model', messages: [{ role: 'user' as const, content: 'hello' }] };

/** Drains a streamed completion into its chunks. */
export async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** The `reasoning_content` of a chunk's delta, a field the OpenAI types do not declare. */
export function reasoningOf(chunk: ChatCompletionChunk): string | undefined {
  return (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content;
}
