/**
 * Refusals in words found in the servers' own code or in their users' reports, and a refusal a
 * proxy sends as a 200 JSON body: each one is learned from, the refused turn is compacted and
 * sent again, later turns are compacted before they are sent, and no turn fails. Without the
 * words (or the reading of the 200 body) every turn past the window would be refused the same way.
 */
import { describe, it } from 'vitest';
import type { FakeReply } from '../../support/fake-openai-server.js';
import { expectRecovered, refusedConversationPerTest, WINDOW } from './refused-conversation.js';

/** A refusal as a 400 carrying `message`. */
const refused = (message: string): FakeReply => ({ status: 400, errorMessage: message });

/** Refusals that name the window, for a prompt of `n` tokens over {@link WINDOW}. */
const NAMING: Record<string, (n: number) => FakeReply> = {
  // ollama/ollama x/mlxrunner/pipeline.go (Prepare, a 400 through the server), at fb30760.
  'Ollama, its MLX engine': (n) => refused(`input length (${n} tokens) exceeds the model's maximum context length (${WINDOW} tokens)`),
  // ddalcu/mlx-serve src/server.zig contextOverflowMessage (and its test), at 9a785b7.
  'mlx-serve': (n) => refused(`Prompt exceeds maximum context length: ${n} tokens requested, ${WINDOW} available`),
  // MoonshotAI/MoonshotAI-Cookbook issue 18 (moonshot-v1-8k, 2024): "model max length exceeded, max length:8192".
  'Moonshot, older': () => refused(`model max length exceeded, max length:${WINDOW}`),
};

/** Refusals that name no window (the engine learns a little less than the refused request). */
const UNNAMING: Record<string, (n: number) => FakeReply> = {
  // ollama/ollama llm/llama_server.go (a prompt over the context, context shift off), at fb30760.
  'Ollama, its llama-server runner': () => refused('the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length'),
  // MoonshotAI/kimi-code issue 1862 (Kimi Code): "400 total message size 2100954 exceeds limit 2097152", a size in characters.
  'Kimi Code': (n) => refused(`total message size ${n * 4} exceeds limit ${WINDOW * 4}`),
  // A proxy that answers 200 with an error object whose only sign of a refusal is its code.
  'a 200 JSON body with the code context_length_exceeded': () => ({
    rawSse: JSON.stringify({ error: { message: 'Please reduce the length of the messages or completion.', type: 'invalid_request_error', code: 'context_length_exceeded' } }),
    headers: { 'content-type': 'application/json' },
  }),
};

describe('a conversation past the window, refused in words found in the servers and their reports', () => {
  const converse = refusedConversationPerTest();

  it.each(Object.entries(NAMING))('%s: the window its words name is learned, and every turn succeeds', async (_server, refusal) => {
    expectRecovered(await converse(refusal), 'named');
  }, 60_000);

  it.each(Object.entries(UNNAMING))('%s: a refusal naming no window is still one, and every turn succeeds', async (_server, refusal) => {
    expectRecovered(await converse(refusal), 'unnamed');
  }, 60_000);
});
