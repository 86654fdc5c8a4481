import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ToolCallEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';

// A tool that answers at once with something that is neither text, a result nor a stream
// fails its call naming what came, as one answering so through a promise does; before, the
// author read rxjs's "You provided 'null' where a stream was expected".

async function endOf(answer: unknown): Promise<ToolCallEndEvent> {
  const tool: Tool = { name: 'odd', description: '', parameters: { type: 'object' }, execute: () => answer as string };
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c', name: 'odd', args: {} }] }, { text: 'done' }]);
  const { values } = await outcomeOf(new ReActAgent({ model, tools: [tool] }).stream('go'));
  expect(values.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return values.find((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd')!;
}

describe('a tool answering at once with the wrong shape', () => {
  it.each<[unknown, string]>([
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'a number'],
    [{ text: 5 }, 'an object without a string `text`'],
    [() => 'text', 'a function'],
  ])('%o: the call fails naming it', async (answer, described) => {
    expect((await endOf(answer)).error).toBe(`The odd tool failed: it returned ${described} instead of text or { text, error? }`);
  });

  it('a list is still read as a stream: its last item', async () => {
    expect(await endOf(['first', 'last'])).toMatchObject({ text: 'last' });
  });
});
