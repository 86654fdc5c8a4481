/**
 * Refusals read through the real `openai` client from the fake server: the mlx-serve and
 * Ollama MLX wordings give the window and the refused prompt's count, and a refusal a proxy
 * sends in a 200 JSON body is read as a 400's would be (its code, and the advice to set the
 * window when its words are not known).
 */
import { describe, expect, it } from 'vitest';
import { contextExceeded, refusedPromptTokens } from '../../src/model/context-exceeded.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { modelFailurePerTest } from './model-failure.js';

const HINT = /set the model's `contextWindow` setting \(the CLI's --context-window\) to the window in tokens/;

describe('refusals read through the client', () => {
  const { failureOf } = modelFailurePerTest();
  /** A 200 whose JSON body is `body`, as some OpenAI-compatible proxies answer. */
  const jsonBody = (body: unknown): FakeReply => ({ rawSse: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  it.each([
    // ddalcu/mlx-serve src/server.zig contextOverflowMessage, at 9a785b7.
    ['mlx-serve', 'Prompt exceeds maximum context length: 9000 tokens requested, 8192 available'],
    // ollama/ollama x/mlxrunner/pipeline.go, at fb30760.
    ['Ollama, its MLX engine', "input length (9000 tokens) exceeds the model's maximum context length (8192 tokens)"],
  ])('%s: the window and the refused prompt\'s count', async (_server, message) => {
    const error = await failureOf({ status: 400, errorMessage: message });
    expect(contextExceeded(error)).toEqual({ window: 8192 });
    expect(refusedPromptTokens(error)).toBe(9000);
    expect(error.message).not.toMatch(HINT);
  });

  it('a 200 body whose error says the refusal only by its code: a refusal, and the code is said', async () => {
    const error = await failureOf(jsonBody({ error: { message: 'Please reduce the length of the messages or completion.', type: 'invalid_request_error', code: 'context_length_exceeded' } }));
    expect(error.message).toBe('model "fake-model": the server answered 200 with an error: Please reduce the length of the messages or completion. (context_length_exceeded)');
    expect(contextExceeded(error)).toEqual({});
  });

  it('a 200 body whose error is a refusal in words not known: the advice to set the window, as after a 400', async () => {
    // Words made up here, so that no pattern will ever know them (LM Studio's stood here until they were learned).
    const message = 'the prompt has 9000 tokens, more than the 8192 this deployment takes in context';
    const error = await failureOf(jsonBody({ error: { message } }));
    expect(error.message.startsWith(`model "fake-model": the server answered 200 with an error: ${message} (if this says`)).toBe(true);
    expect(error.message).toMatch(HINT);
  });

  it('a 200 body whose error is a string: said as it is, no quotes', async () => {
    const error = await failureOf(jsonBody({ error: 'prompt too long; exceeded max context length by 12 tokens' }));
    expect(error.message).toBe('model "fake-model": the server answered 200 with an error: prompt too long; exceeded max context length by 12 tokens');
    expect(contextExceeded(error)).toEqual({});
  });
});
