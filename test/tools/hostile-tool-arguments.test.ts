import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent, ToolCallEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';

// A model's arguments are outside input. Whatever they hold, the call fails with a text the
// model reads and the run goes on: it never ends the run.

/** A tool taking any object, counting its calls. */
function openTool(): Tool & { calls: number } {
  const tool = { name: 'open', description: 'Takes anything.', parameters: { type: 'object' }, calls: 0, execute: () => (tool.calls++, 'ran') };
  return tool;
}

/** One step calling `name` with the raw `args`, then an answer; the events and the call's end. */
async function callOnce(name: string, args: string, tools: Tool[]): Promise<{ events: AgentEvent[]; end: ToolCallEndEvent; read: string }> {
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name, args }] }, { text: 'went on' }]);
  const { values: events, completed } = await outcomeOf(new ReActAgent({ model, tools }).stream('go'));
  expect(completed).toBe(true);
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, steps: 2, text: 'went on' });
  const end = events.find((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd')!;
  return { events, end, read: String(model.requests[1]?.messages.at(-1)?.content) };
}

const nested = (depth: number): string => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('hostile tool-call arguments', () => {
  it('arrays nested 100,000 deep: refused as unreadable, raw text kept in the events, nothing run, the run goes on', async () => {
    const tool = openTool();
    const raw = nested(100_000);
    const { events, end, read } = await callOnce('open', raw, [tool]);
    expect(end.error).toBe(
      'The arguments of this open call are not valid JSON (arrays and objects nested more than 100 deep, more than any tool takes). ' +
        'Nothing was run; call it again with a JSON object.',
    );
    expect(read).toBe(`ERROR: ${end.error}`);
    expect(events.find((e) => e.type === 'ToolCallStart')).toMatchObject({ args: raw });
    expect(tool.calls).toBe(0);
  });

  it('100 levels are read; brackets inside strings do not count', async () => {
    const tool = openTool();
    expect((await callOnce('open', nested(100), [tool])).end).toMatchObject({ text: 'ran' });
    expect((await callOnce('open', JSON.stringify({ a: '['.repeat(1000), b: '\\"[['.repeat(200) }), [tool])).end).toMatchObject({ text: 'ran' });
    expect((await callOnce('open', nested(101), [tool])).end.error).toMatch(/nested more than 100 deep/);
    expect(tool.calls).toBe(2);
  });

  it('a hand-written tool whose parameters are no valid JSON schema: refused when the agent is made, saying why', () => {
    const bad: Tool = { name: 'bad', description: 'd', parameters: { type: 'object', properties: { a: { type: 'bogus' } } }, execute: () => 'ran' };
    expect(() => new ReActAgent({ model: new ScriptedModel([{ text: 'unused' }]), tools: [bad] })).toThrow(/^ReActAgent: the tool "bad": `parameters` .*schema is invalid: /);
  });
});
