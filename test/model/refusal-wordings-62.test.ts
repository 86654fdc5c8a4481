/**
 * LM Studio's refusals (its llama.cpp engine) and older mlx-serve's bare one: `contextExceeded`
 * reads each as a refusal, with the window and the refused prompt's count when the words give
 * them, and a 400 saying one carries no advice to set the window by hand (it is learned). The
 * words they share with other errors ("maximum context length", "greater than the context
 * length") are no refusal alone.
 */
import { describe, expect, it } from 'vitest';
import { contextExceeded, refusedPromptTokens } from '../../src/model/context-exceeded.js';
import { modelFailurePerTest } from './model-failure.js';

/** As the model wraps the server's words: its own message, the client's error as the cause. */
const refusal = (message: string): Error => new Error('model "m": HTTP 400', { cause: new Error(message) });
const HINT = /set the model's `contextWindow` setting/;
const LOAD_LARGER = 'Try to load the model with a larger context length, or provide a shorter input';

describe('LM Studio and older mlx-serve refusing a request longer than the window', () => {
  const { failureOf } = modelFailurePerTest();

  it.each([
    // Gitlawb/openclaude issue 353.
    ['LM Studio, n_keep and n_ctx', `The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). ${LOAD_LARGER}.`, 4096, 13055],
    // anomalyco/opencode issue 11141.
    ['LM Studio, cannot truncate', 'Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)', 7424, 15028],
    // lmstudio-ai/lmstudio-bug-tracker issue 546.
    ['LM Studio, older', `Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough. ${LOAD_LARGER}. Error Data: n/a, Additional Data: n/a`, 32768, 111490],
  ])('%s: the window, and the prompt\'s count', (_server, message, window, prompt) => {
    expect(contextExceeded(refusal(message))).toEqual({ window });
    expect(refusedPromptTokens(refusal(message))).toBe(prompt);
  });

  it.each([
    // anomalyco/opencode issue 2259, lmstudio-ai/lmstudio-bug-tracker issue 2205.
    ['LM Studio, no counts', `The number of tokens to keep from the initial prompt is greater than the context length. ${LOAD_LARGER}`],
    ['LM Studio, cannot truncate, no counts', 'Cannot truncate prompt with n_keep >= n_ctx'],
    // mlx-serve tests/bench_prefill_sweep.sh, quoting older builds.
    ['mlx-serve, older', 'Prompt exceeds maximum context length'],
  ])('%s: a refusal that names no window', async (_server, message) => {
    expect(contextExceeded(refusal(message))).toEqual({});
    expect(refusedPromptTokens(refusal(message))).toBeUndefined();
    // Through the client, as a 400: known words, so no advice to set the window by hand.
    const error = await failureOf({ status: 400, errorMessage: message });
    expect(contextExceeded(error)).toEqual({});
    expect(error.message).toBe(`model "fake-model": HTTP 400: ${message}`);
  });

  it.each([
    ['max_tokens past the maximum context length', 'max_tokens must not exceed the maximum context length of this model'],
    ['max_tokens greater than the context length', 'max_tokens (9000) is greater than the context length'],
    ['a prompt format', 'prompt exceeds the maximum length of the template'],
  ])('%s: no refusal', (_what, message) => {
    expect(contextExceeded(refusal(message))).toBeUndefined();
  });

  it('an unrelated 400 naming the maximum context length keeps the advice a refusal in unknown words gets', async () => {
    const message = 'max_tokens must not exceed the maximum context length of this model';
    const error = await failureOf({ status: 400, errorMessage: message });
    expect(contextExceeded(error)).toBeUndefined();
    expect(error.message).toMatch(HINT);
  });
});
