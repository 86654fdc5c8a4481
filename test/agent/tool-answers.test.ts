import { EMPTY, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ToolCallEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

/** One call of a tool answering with `answer()`, then a final step; the call's end and what the model read. */
async function answerOf(answer: Tool['execute']): Promise<{ end: ToolCallEndEvent; read: unknown }> {
  const tool: Tool = { name: 'odd', description: '', parameters: { type: 'object' }, execute: answer };
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c', name: 'odd', args: {} }] }, { text: 'done' }]);
  const { values, completed } = await outcomeOf(new ReActAgent({ model, tools: [tool] }).stream('go'));
  expect(completed).toBe(true);
  expect(values.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  const end = values.find((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd')!;
  return { end, read: model.requests[1]?.messages.at(-1)?.content };
}

describe('what a tool answers becomes the text the model reads', () => {
  it('a stream of several values: its last; a stream that ends empty: an empty text', async () => {
    expect(await answerOf(() => of('first', 'second', 'last'))).toMatchObject({ end: { text: 'last' }, read: 'last' });
    const empty = await answerOf(() => EMPTY);
    expect(empty.end.text).toBe('');
    expect(empty.end.error).toBeUndefined();
    expect(empty.read).toBe('');
  });

  it('a promise of a result with an error: the error is the call\'s, the text what the model reads', async () => {
    const { end, read } = await answerOf(() => Promise.resolve({ text: 'partial output', error: 'exit code 2' }));
    expect(end).toMatchObject({ text: 'partial output', error: 'exit code 2' });
    expect(read).toBe('partial output');
  });

  it('an answer of the wrong shape fails the call, naming what came', async () => {
    const cases: [Tool['execute'], string][] = [
      [() => of(42 as unknown as string), 'a number'],
      [() => Promise.resolve(undefined as unknown as string), 'undefined'],
      [() => of({ text: 'ok', error: 7 } as unknown as string), 'an object without a string `text`'],
      [() => Promise.resolve(['a'] as unknown as string), 'a list'],
    ];
    for (const [answer, described] of cases) {
      const { end } = await answerOf(answer);
      expect(end.error).toBe(`The odd tool failed: it returned ${described} instead of text or { text, error? }`);
    }
  });

  it('an answer before the deadline ends the call then, and the deadline later changes nothing (virtual time)', () => {
    const scheduler = createTestScheduler();
    let log: string[] = [];
    scheduler.run(({ cold }) => {
      const tool: Tool = { name: 'quick', description: '', parameters: { type: 'object' }, execute: () => cold('30ms (a|)', { a: 'in time' }) };
      const model = new ScriptedModel([{ toolCalls: [{ name: 'quick', args: {} }] }, { text: 'ok' }], { scheduler, chunkDelayMs: 100 });
      const agent = new ReActAgent({ model, tools: [tool], toolTimeoutMs: 50 });
      log = timeline(scheduler, agent.stream('go'), (e) => (e.type === 'ToolCallEnd' ? `ToolCallEnd ${e.text} ${e.error ?? 'ok'}` : e.type));
    });
    const call = log.filter((l) => /ToolCall/.test(l));
    expect(call).toHaveLength(2);
    expect(call[1]).toMatch(/ ToolCallEnd in time ok$/);
    const started = Number(call[0]!.split(' ')[0]);
    expect(Number(call[1]!.split(' ')[0]) - started).toBe(30);
    expect(log.at(-1)).toMatch(/ \|$/);
    expect(log.filter((l) => /RunEnd/.test(l))).toHaveLength(1);
  });
});
