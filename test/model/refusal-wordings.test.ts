/**
 * The words of servers without `/props` (every one but llama.cpp) refusing a request longer
 * than the context window: their refusal is the only way the engine learns the window, so
 * `contextExceeded` must read it (and the window it names), and `refusedPromptTokens` the
 * prompt's count when the words give it. Errors about something else stay no refusal.
 */
import { describe, expect, it } from 'vitest';
import { contextExceeded, refusedPromptTokens } from '../../src/model/context-exceeded.js';

/** As the model wraps the server's words: its own message, the client's error as the cause. */
const refusal = (message: string): Error => new Error('model "m": HTTP 400', { cause: new Error(message) });

describe('refusals in the words of servers that do not announce their window', () => {
  it.each([
    ['SGLang / LiteLLM', "Requested token count exceeds the model's maximum context length of 8192 tokens. You requested a total of 10370 tokens: 9370 tokens from the input messages and 1000 tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.", 8192, 9370],
    ['SGLang / LiteLLM, no counts', "Requested token count exceeds the model's maximum context length of 131072 tokens.", 131072, undefined],
    ['Together / SGLang', "The input (9746 tokens) is longer than the model's context length (8192 tokens).", 8192, 9746],
    ['Mistral', 'Prompt contains 9814 tokens and 0 draft tokens, too large for model with 8192 maximum context length', 8192, 9814],
    ['xAI', "This model's maximum prompt length is 131072 but the request contains 136973 tokens.", 131072, 136973],
    ['Anthropic', 'prompt is too long: 208656 tokens > 200000 maximum', 200000, 208656],
    ['Gemini', 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', 1048576, 1200293],
    ['vLLM, newest', "This model's maximum context length is 8192 tokens. However, you requested 64 output tokens and your prompt contains 10000 input tokens, for a total of 10064 tokens.", 8192, 10000],
    // "at least": vLLM stopped counting at the bound, so the number is no count of the prompt.
    ['vLLM, input length', "Input length (265330) exceeds model's maximum context length (262144).", 262144, 265330],
    ['vLLM, input length with thousands separators', "Input length (66,275) exceeds model's maximum context length (65,536).", 65536, 66275],
    ['vLLM, decoder prompt', 'The decoder prompt (length 163840) is longer than the maximum model length of 131072. Make sure that `max_model_len` is no smaller than the number of text tokens.', 131072, 163840],
    ['SGLang, maximum allowed length', 'Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens).', 59862, 160062],
    ['TGI, inputs and max_new_tokens', 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`', 4096, 4000],
    ['TGI, inputs alone', 'Input validation error: `inputs` must have less than 1024 tokens. Given: 1168', 1024, 1168],
    ['Poolside', 'Provider returned error: Input length 131393 exceeds the maximum allowed input length of 131040 tokens.', 131040, 131393],
    ['a maximum input length', 'Requested input length 600010 exceeds maximum input length 131071', 131071, 600010],
    ['Anthropic, its own API', 'input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again', 200000, 199759],
    // "requested" counts the answer's room too: no count of the prompt.
    ['Kimi', 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)', 262144, undefined],
    ['Qwen (DashScope)', 'Range of input length should be [1, 129024]', 129024, undefined],
    ['a llama.cpp fork, thousands separators', 'Prompt has 5,958,968 tokens, but the configured context size is 256,000 tokens', 256000, 5958968],
    ['OpenAI, thousands separators', "This model's maximum context length is 131,072 tokens. However, your messages resulted in 140,001 tokens.", 131072, 140001],
    ['SGLang, thousands separators', "Requested token count exceeds the model's maximum context length of 8,192 tokens. You requested a total of 10,370 tokens: 9,370 tokens from the input messages and 1,000 tokens for the completion.", 8192, 9370],
    ['vLLM, a prompt counted only up to the bound', "This model's maximum context length is 8192 tokens. However, you requested 64 output tokens and your prompt contains at least 8129 input tokens, for a total of at least 8193 tokens.", 8192, undefined],
  ])('%s: the window, and the prompt\'s count when it is said', (_server, message, window, prompt) => {
    const error = refusal(message);
    expect(contextExceeded(error)).toEqual({ window });
    expect(refusedPromptTokens(error)).toBe(prompt);
  });

  it.each([
    // The excess is no window and no prompt: the engine learns a window a little less than the refused request.
    ['Ollama', 'prompt too long; exceeded max context length by 4021 tokens'],
    ['Ollama, embeddings', 'the input length exceeds the context length'],
    ['MiniMax', 'invalid params, context window exceeds limit (2013)'],
  ])('%s: a refusal that names no window', (_server, message) => {
    expect(contextExceeded(refusal(message))).toEqual({});
    expect(refusedPromptTokens(refusal(message))).toBeUndefined();
  });

  it.each([
    ['OpenAI, max_tokens too large', 'max_tokens is too large: 50000. This model supports at most 16384 completion tokens, whereas you provided 50000.'],
    ['Anthropic, max_tokens too large', 'max_tokens: 300000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4'],
    ['vLLM, max_tokens past the model length', 'max_tokens=131072 cannot be greater than max_model_len=65536'],
    ['a rate limit counting tokens', 'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 5000.'],
    ['a request too long in bytes', "Invalid 'messages[2].content': string too long. Expected a string with maximum length 10485760, but got a string with length 12000000 instead."],
    ['a proxy\'s budget', 'request (9000 tokens) exceeds the budget of this proxy'],
    ['a prompt template', 'prompt is too long for the template: 3 placeholders > 2 maximum'],
    ['TGI, max_new_tokens too large', 'Input validation error: `max_new_tokens` must be <= 192. Given: 1000'],
    ['Qwen, max_tokens too large', 'Range of max_tokens should be [1, 8192]'],
    ['an input too long in characters', 'Input length 131393 exceeds the limit of this form'],
  ])('%s: no refusal', (_what, message) => {
    expect(contextExceeded(refusal(message))).toBeUndefined();
    expect(refusedPromptTokens(refusal(message))).toBeUndefined();
  });
});
