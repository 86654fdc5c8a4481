import { readFileSync } from 'node:fs';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelChunk, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// Answers recorded from a real llama.cpp llama-server (test/fixtures/llama/README.md),
// replayed byte for byte by the fake server into the real `openai` client through
// OpenAIChatModel: what the model layer makes of a real server's quirks (a role-only first
// chunk, finish_reason in a chunk with an empty delta, usage in a chunk with no choices plus
// `timings`, reasoning_content, parallel tool calls in fragments, an error inside a 200 stream).

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'Say hello.' }] };

function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/llama/${name}`, import.meta.url), 'utf8');
}

/** How many `data:` chunks of the fixture carry `field` in their delta. */
function chunksWith(sse: string, field: string): number {
  return sse.split('\n').filter((line) => line.startsWith('data: {') && line.includes(`"${field}":"`)).length;
}

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

async function replay(name: string): Promise<ModelChunk[]> {
  server.enqueue({ rawSse: fixture(name) });
  return lastValueFrom(openAIModelFor(server, { model: 'tiny' }).stream(HELLO).pipe(toArray()));
}

function deltas(chunks: readonly ModelChunk[], type: 'text-delta' | 'thinking-delta'): string[] {
  return chunks.flatMap((c) => (c.type === type ? [c.text] : []));
}

function finishOf(chunks: readonly ModelChunk[]): ModelFinish {
  expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(1);
  return chunks.at(-1) as ModelFinish;
}

describe('llama-server answers, replayed', () => {
  it('a plain text answer (Qwen2.5): every content piece a delta, finish "stop", usage from the choice-less chunk', async () => {
    const chunks = await replay('qwen2.5-text.sse');
    const text = deltas(chunks, 'text-delta');
    expect(text).toHaveLength(chunksWith(fixture('qwen2.5-text.sse'), 'content'));
    expect(text.join('')).toBe(' cres widely proof何FAULT estasemeteryfahrt Lan');
    expect(deltas(chunks, 'thinking-delta')).toEqual([]);
    expect(finishOf(chunks)).toEqual({
      type: 'finish',
      text: ' cres widely proof何FAULT estasemeteryfahrt Lan',
      toolCalls: [],
      usage: { promptTokens: 53, completionTokens: 10, totalTokens: 63 },
      finishReason: 'stop',
    });
  });

  it('forced parallel tool calls (Functionary v3.2): three calls assembled from their fragments, verbatim', async () => {
    const chunks = await replay('functionary-parallel-calls.sse');
    expect(deltas(chunks, 'text-delta')).toEqual([]);
    const finish = finishOf(chunks);
    expect(finish.finishReason).toBe('tool_calls');
    expect(finish.usage).toEqual({ promptTokens: 371, completionTokens: 159, totalTokens: 530 });
    expect(finish.text).toBe('');
    // Ids of 32 random characters, the name in the first fragment, arguments with the server's odd whitespace kept.
    expect(finish.toolCalls).toEqual([
      { id: 'nZeynQHHa2ZhZieiWzDP0P6nP1nQoaQm', name: 'task', arguments: '{"agent_name":"explore","prompt" :">","description" :">xx>>x>>>" }' },
      {
        id: 'p63Hnmk0LiqwhFefMm1I3AI6zfwR2hHG',
        name: 'task',
        arguments: '{"agent_name"\n                   :"explore","prompt":">>","description":">>>>","background" : false}',
      },
      { id: 'Hogo4ILucfl8xNyy72sJl5ZDMvvyAGn9', name: 'task', arguments: '{"agent_name":"explore","prompt":">>>>x>>x>>>","description":">>","task_id":">>>xx>>>>" }' },
    ]);
    for (const call of finish.toolCalls) expect(JSON.parse(call.arguments)).toMatchObject({ agent_name: 'explore' });
  });

  it('a reasoning answer cut while thinking (DeepSeek-R1): thinking deltas only, no text, finish "length"', async () => {
    const chunks = await replay('deepseek-r1-reasoning.sse');
    const thinking = deltas(chunks, 'thinking-delta');
    expect(thinking).toHaveLength(chunksWith(fixture('deepseek-r1-reasoning.sse'), 'reasoning_content'));
    expect(thinking.join('')).toBe('\numanngså形♣ Haw Emerities YouthEventArgs beautlov alternative');
    expect(deltas(chunks, 'text-delta')).toEqual([]);
    expect(finishOf(chunks)).toEqual({
      type: 'finish',
      text: '',
      toolCalls: [],
      usage: { promptTokens: 32, completionTokens: 12, totalTokens: 44 },
      finishReason: 'length',
    });
  });

  it('an error inside a 200 stream (Functionary v3.2, text it cannot parse): a ModelError with the server\'s message, not retried', async () => {
    server.enqueue({ rawSse: fixture('functionary-stream-error.sse') });
    const model = openAIModelFor(server, { model: 'tiny', maxRetries: 2 });
    const { values, error } = await outcomeOf(model.stream(HELLO));
    expect(values).toEqual([]);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(
      'model "tiny": the stream reported an error: The model produced output that does not match the expected peg-native format',
    );
    expect(server.requests, 'a response that has begun is never retried').toHaveLength(1);
  });
});
