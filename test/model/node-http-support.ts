/**
 * Shared pieces of the node:http transport tests: SSE chunks as a chat server writes them, a
 * model on rxharness's own client, and the sockets its shared agent holds for a server.
 *
 * @module
 */
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/model/openai-chat-model.js';
import { agentFor } from '../../src/model/node-http-fetch.js';
import type { ChatRequest } from '../../src/model/chat-model.js';

/** A one-message request. */
export const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

/** The SSE event of one text delta, with a finish reason when given. */
export function sseChunk(text: string, finish: string | null = null): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: finish }] })}\n\n`;
}

/** A whole SSE reply of these pieces, ended with `stop` and `[DONE]`. */
export function sseReply(pieces: readonly string[]): string {
  return `${pieces.map((piece) => sseChunk(piece)).join('')}${sseChunk('', 'stop')}data: [DONE]\n\n`;
}

/** A model built as users build one (a `baseURL`: rxharness's own client, on node:http) for the server at `url`. */
export function modelAt(url: string, options: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel {
  return new OpenAIChatModel({ model: 'm', baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0, ...options });
}

/** Sockets (busy and idle) the shared agent holds for the server at `url`. */
export function agentSocketsFor(url: string): number {
  const { protocol, host } = new URL(url);
  const agent = agentFor(protocol as 'http:' | 'https:');
  let count = 0;
  for (const pool of [agent.sockets, agent.freeSockets]) {
    for (const [name, sockets] of Object.entries(pool)) if (name.startsWith(`${host}:`)) count += sockets?.length ?? 0;
  }
  return count;
}
