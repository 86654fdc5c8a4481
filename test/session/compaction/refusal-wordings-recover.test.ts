/**
 * A session on a server that does not announce its window (no `/props`: every server but
 * llama.cpp) grows past the window, and the server refuses in its own words. The engine learns
 * the window from that refusal alone: the refused turn is compacted and sent again, later turns
 * are compacted before they are sent, and no turn fails.
 */
import { describe, it } from 'vitest';
import type { FakeReply } from '../../support/fake-openai-server.js';
import { expectRecovered, refusedConversationPerTest, WINDOW } from './refused-conversation.js';

/** A refusal as a 400 carrying the server's `words` for a prompt of `n` tokens. */
const refused = (words: (n: number) => string) => (n: number): FakeReply => ({ status: 400, errorMessage: words(n) });

/** The servers' words for a prompt of `n` tokens over {@link WINDOW}. */
const REFUSALS: Record<string, (n: number) => string> = {
  'SGLang / LiteLLM': (n) => `Requested token count exceeds the model's maximum context length of ${WINDOW} tokens. You requested a total of ${n + 1000} tokens: ${n} tokens from the input messages and 1000 tokens for the completion.`,
  Together: (n) => `The input (${n} tokens) is longer than the model's context length (${WINDOW} tokens).`,
  Mistral: (n) => `Prompt contains ${n} tokens and 0 draft tokens, too large for model with ${WINDOW} maximum context length`,
  xAI: (n) => `This model's maximum prompt length is ${WINDOW} but the request contains ${n} tokens.`,
  Anthropic: (n) => `prompt is too long: ${n} tokens > ${WINDOW} maximum`,
  Gemini: (n) => `The input token count (${n}) exceeds the maximum number of tokens allowed (${WINDOW}).`,
  'vLLM, input length': (n) => `Input length (${n}) exceeds model's maximum context length (${WINDOW}).`,
  'vLLM, decoder prompt': (n) => `The decoder prompt (length ${n}) is longer than the maximum model length of ${WINDOW}.`,
  'SGLang, maximum allowed length': (n) => `Input length (${n} tokens) exceeds the maximum allowed length (${WINDOW} tokens).`,
  TGI: (n) => `Input validation error: \`inputs\` tokens + \`max_new_tokens\` must be <= ${WINDOW}. Given: ${n} \`inputs\` tokens and 0 \`max_new_tokens\``,
  Poolside: (n) => `Input length ${n} exceeds the maximum allowed input length of ${WINDOW} tokens.`,
  'Anthropic, its own API': (n) => `input length and \`max_tokens\` exceed context limit: ${n} + 0 > ${WINDOW}`,
  Kimi: (n) => `Invalid request: Your request exceeded model token limit: ${WINDOW} (requested: ${n})`,
  'Qwen (DashScope)': () => `Range of input length should be [1, ${WINDOW}]`,
  'thousands separators': (n) => `Prompt has ${n.toLocaleString('en-US')} tokens, but the configured context size is ${WINDOW.toLocaleString('en-US')} tokens`,
};

describe('a conversation past the window of a server that names it only when it refuses', () => {
  const converse = refusedConversationPerTest();

  it.each(Object.entries(REFUSALS))('%s: its window is learned from the refusal, and every turn succeeds', async (_server, words) => {
    // The first compaction answers the refusal, with the window its words name; later ones come before the request.
    expectRecovered(await converse(refused(words)), 'named');
  }, 60_000);

  // Ollama says by how much the prompt is over, not the window: the window learned is a little less than the refused prompt.
  it('Ollama: a refusal naming only the excess is still one, and every turn succeeds', async () => {
    expectRecovered(await converse(refused((n) => `prompt too long; exceeded max context length by ${n - WINDOW} tokens`)), 'unnamed');
  }, 60_000);
});
