import { describe, expect, it } from 'vitest';
import { encodeChunks } from './fake-openai/chunk-encoding.js';
import { encodeCompletion } from './fake-openai/completion-encoding.js';
import { errorBody } from './fake-openai/error-body.js';
import { splitArguments, splitText } from './fake-openai/reply-context.js';
import { estimateUsage } from './fake-openai-server.js';

const CONTEXT = { requestIndex: 4, model: 'm', created: 0, includeUsage: false };

describe('reply encoding', () => {
  it('splits text by code points and always splits arguments in two or more', () => {
    expect(splitText('abcde', 2)).toEqual(['ab', 'cd', 'e']);
    expect(splitText('😀😀😀', 2)).toEqual(['😀😀', '😀']);
    expect(splitText('', 3)).toEqual([]);
    expect(splitArguments('{}', 16)).toEqual(['{', '}']);
    expect(splitArguments('{"a":1}', 3)).toEqual(['{"a', '":1', '}']);
  });

  it('estimates usage deterministically from the messages and the reply', () => {
    const usage = estimateUsage({ messages: [{ role: 'user', content: 'hi' }] }, { text: 'hello' });
    expect(usage).toEqual({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
    expect(estimateUsage({ messages: [] }, { text: 'x'.repeat(40) }).completion_tokens).toBe(10);
  });

  it('gives a tool-only message null content, thinking as reasoning_content, and derived call ids', () => {
    const completion = encodeCompletion(
      { thinking: 'hmm', toolCalls: [{ name: 'read', arguments: { path: 'a' } }], usage: false },
      { messages: [] },
      CONTEXT,
    );
    expect(completion).toEqual({
      id: 'chatcmpl-fake-4',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      system_fingerprint: 'fp_fake',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            reasoning_content: 'hmm',
            tool_calls: [{ id: 'call_4_0', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }],
          },
        },
      ],
    });
  });

  it('sends one empty assistant delta for an empty reply, and honours finishReason', () => {
    const chunks = encodeChunks({ finishReason: 'length' }, { messages: [] }, CONTEXT);
    expect(chunks.map((chunk) => chunk['choices'])).toEqual([
      [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }],
    ]);
  });

  it('maps statuses to OpenAI error types and codes', () => {
    expect(errorBody(429)).toEqual({
      error: { message: 'Rate limit reached. Please try again later.', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    expect(errorBody(503, 'down')).toEqual({ error: { message: 'down', type: 'server_error', param: null, code: null } });
    expect(errorBody(418)).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});
