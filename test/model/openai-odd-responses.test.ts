import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelChunk, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// Cut or odd responses, through the real `openai` client against the fake server: each one is
// either read as the answer it is, or ends the stream with a ModelError that says what came.

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

async function chunksFor(reply: FakeReply): Promise<ModelChunk[]> {
  server.enqueue(reply);
  return lastValueFrom(openAIModelFor(server).stream(HELLO).pipe(toArray()));
}

function finishOf(chunks: readonly ModelChunk[]): ModelFinish {
  expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(1);
  expect(chunks.at(-1)?.type).toBe('finish');
  return chunks.at(-1) as ModelFinish;
}

const textOf = (chunks: readonly ModelChunk[], type = 'text-delta') =>
  chunks.flatMap((c) => (c.type === type ? [(c as { text: string }).text] : [])).join('');

describe('a stream that ends early', () => {
  it('without finish_reason or [DONE]: a ModelError naming what arrived, after the deltas, and no finish', async () => {
    server.enqueue({ text: 'the beginning of an answer that is cut', chunkSize: 8, endAfterChunks: 3 });
    const { values, error } = await outcomeOf(openAIModelFor(server).stream(HELLO));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(
      'model "fake-model": the stream ended after 3 chunks without finish_reason or [DONE]: the connection was probably cut',
    );
    expect(values.map((c) => c.type)).toEqual(['text-delta', 'text-delta', 'text-delta']);
    expect(textOf(values)).toBe('the beginning of an answer that is cut'.slice(0, 24));
  });

  it('with a finish_reason but no [DONE]: a normal finish (the reply is whole; many servers never send [DONE])', async () => {
    const chunks = await chunksFor({ text: 'complete answer', omitDone: true, usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    expect(finishOf(chunks)).toEqual({
      type: 'finish',
      text: 'complete answer',
      toolCalls: [],
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
      finishReason: 'stop',
    });
  });
});

describe('finish reasons are carried as the server sent them', () => {
  for (const reason of ['length', 'content_filter', 'stop'] as const) {
    it(`finish_reason "${reason}"`, async () => {
      expect(finishOf(await chunksFor({ text: 'some text', finishReason: reason })).finishReason).toBe(reason);
    });
  }

  it('"tool_calls" with the calls', async () => {
    const finish = finishOf(await chunksFor({ toolCalls: [{ id: 'c1', name: 'read', arguments: { path: 'a' } }] }));
    expect(finish).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a"}' }] });
  });
});

describe('odd but whole responses are read as the answer they are', () => {
  it('a 200 JSON chat.completion to a streaming request (the server ignored stream: true)', async () => {
    const chunks = await chunksFor({
      ignoreStream: true,
      thinking: 'Considering.',
      text: 'Whole answer.',
      toolCalls: [{ id: 'c1', name: 'read', arguments: { path: 'a.txt' } }],
      usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 },
    });
    expect(chunks).toEqual([
      { type: 'thinking-delta', text: 'Considering.' },
      { type: 'text-delta', text: 'Whole answer.' },
      {
        type: 'finish',
        text: 'Whole answer.',
        toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"a.txt"}' }],
        usage: { promptTokens: 7, completionTokens: 5, totalTokens: 12 },
        finishReason: 'tool_calls',
      },
    ]);
  });

  it('tool-call fragments without index: each call assembled from its own fragments, in order', async () => {
    const finish = finishOf(
      await chunksFor({
        omitToolCallIndex: true,
        chunkSize: 4,
        toolCalls: [
          { id: 'call_a', name: 'read', arguments: { path: 'src/index.ts' } },
          { id: 'call_b', name: 'grep', arguments: { pattern: 'TODO' } },
        ],
      }),
    );
    expect(finish.toolCalls).toEqual([
      { id: 'call_a', name: 'read', arguments: '{"path":"src/index.ts"}' },
      { id: 'call_b', name: 'grep', arguments: '{"pattern":"TODO"}' },
    ]);
  });

  it('a final chunk without delta: the finish keeps the streamed text and the finish reason', async () => {
    const chunks = await chunksFor({ text: 'kept text', chunkSize: 3, omitFinishDelta: true, finishReason: 'length' });
    expect(textOf(chunks)).toBe('kept text');
    expect(finishOf(chunks)).toMatchObject({ text: 'kept text', finishReason: 'length' });
  });
});

describe('usage with missing fields: what can be computed is, and nothing is NaN', () => {
  const cases = [
    [{ prompt_tokens: 10, total_tokens: 15 }, { promptTokens: 10, completionTokens: 5, totalTokens: 15 }],
    [{ prompt_tokens: 10, completion_tokens: 4 }, { promptTokens: 10, completionTokens: 4, totalTokens: 14 }],
    [{ completion_tokens: 4, total_tokens: 9 }, { promptTokens: 5, completionTokens: 4, totalTokens: 9 }],
    [{ total_tokens: 9 }, { promptTokens: 0, completionTokens: 0, totalTokens: 9 }],
    [{ completion_tokens: 6 }, { promptTokens: 0, completionTokens: 6, totalTokens: 6 }],
  ] as const;
  for (const [sent, read] of cases) {
    it(`${JSON.stringify(sent)} reads as ${JSON.stringify(read)}`, async () => {
      expect(finishOf(await chunksFor({ text: 'x', rawUsage: sent })).usage).toEqual(read);
    });
  }

  it('a usage object with no numbers at all counts as no usage', async () => {
    expect(finishOf(await chunksFor({ text: 'x', rawUsage: {} })).usage).toBeUndefined();
  });
});
