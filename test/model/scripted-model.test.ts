import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ModelChunk } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { outcomeOf } from '../support/collect.js';
import { createTestScheduler } from '../support/virtual-time.js';

const ask = (content: string): ChatRequest => ({ messages: [{ role: 'user', content }] });

describe('ScriptedModel', () => {
  it('plays its replies in order, chunked, thinking first, and records every request', async () => {
    const model = new ScriptedModel([{ thinking: 'hmm', text: 'abcdefg', usage: { promptTokens: 3, completionTokens: 2 } }, { text: 'second' }], {
      chunkSize: 3,
    });
    const first = await lastValueFrom(model.stream(ask('one')).pipe(toArray()));
    expect(first).toEqual([
      { type: 'thinking-delta', text: 'hmm' },
      { type: 'text-delta', text: 'abc' },
      { type: 'text-delta', text: 'def' },
      { type: 'text-delta', text: 'g' },
      { type: 'finish', text: 'abcdefg', toolCalls: [], usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 }, finishReason: 'stop' },
    ]);
    const second = await lastValueFrom(model.stream(ask('two')));
    expect(second).toMatchObject({ type: 'finish', text: 'second' });
    expect(model.requests.map((r) => r.messages[0]?.content)).toEqual(['one', 'two']);
  });

  it('numbers tool calls per request, sends object args as JSON and string args raw', async () => {
    const model = new ScriptedModel([
      { text: 'x' },
      { toolCalls: [{ name: 'read', args: { path: 'a' } }, { id: 'mine', name: 'bash', args: '{"command": ' }] },
    ]);
    await lastValueFrom(model.stream(ask('1')));
    const finish = await lastValueFrom(model.stream(ask('2')));
    expect(finish).toMatchObject({
      type: 'finish',
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'call_2_1', name: 'read', arguments: '{"path":"a"}' },
        { id: 'mine', name: 'bash', arguments: '{"command": ' },
      ],
    });
  });

  it('asks a responder for each reply, with the request and its index', async () => {
    const model = new ScriptedModel((request, { index }) => ({ text: `#${index}: ${String(request.messages.at(-1)?.content)}` }));
    expect(await lastValueFrom(model.stream(ask('a')))).toMatchObject({ text: '#0: a' });
    expect(await lastValueFrom(model.stream(ask('b')))).toMatchObject({ text: '#1: b' });
  });

  it('reports a scripted finish reason (a reply cut by the token limit, a filtered one)', async () => {
    const model = new ScriptedModel([{ text: 'cut sho', finishReason: 'length' }, { toolCalls: [{ name: 'read', args: {} }], finishReason: 'content_filter' }]);
    expect(await lastValueFrom(model.stream(ask('1')))).toMatchObject({ text: 'cut sho', finishReason: 'length' });
    expect(await lastValueFrom(model.stream(ask('2')))).toMatchObject({ finishReason: 'content_filter' });
  });

  it('fails with a ModelError naming the request when the script has run out', async () => {
    const model = new ScriptedModel([{ text: 'only one' }], { id: 'tiny' });
    await lastValueFrom(model.stream(ask('1')));
    const { error } = await outcomeOf(model.stream(ask('2')));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe('ScriptedModel "tiny": no reply scripted for request #2');
  });

  it('fails a reply with `error` after streaming its deltas, with no finish', async () => {
    const model = new ScriptedModel([{ text: 'abcd', chunkSize: 2, error: 'overloaded' }]);
    const { values, error } = await outcomeOf(model.stream(ask('x')));
    expect(values.map((c) => c.type)).toEqual(['text-delta', 'text-delta']);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe('overloaded');
  });

  it('waits delayMs before the first chunk and chunkDelayMs between chunks, in virtual time', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ expectObservable }) => {
      const reply = { text: 'abcdef', delayMs: 5, usage: { promptTokens: 1, completionTokens: 1 } };
      const model = new ScriptedModel([reply, reply], {
        scheduler,
        chunkDelayMs: 10,
        chunkSize: 2,
      });
      const values: Record<string, ModelChunk> = {
        a: { type: 'text-delta', text: 'ab' },
        b: { type: 'text-delta', text: 'cd' },
        c: { type: 'text-delta', text: 'ef' },
        d: { type: 'finish', text: 'abcdef', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, finishReason: 'stop' },
      };
      expectObservable(model.stream(ask('x')), '^ 20ms !').toBe('5ms a 9ms b', values);
      expectObservable(model.stream(ask('y'))).toBe('5ms a 9ms b 9ms c 9ms (d|)', values);
    });
  });
});
