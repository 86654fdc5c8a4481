/**
 * A tool call's arguments are parsed once, when its step ends: `ReasonEnd`, `ActionStart`,
 * `ToolCallStart` and the tool itself all read that one parse. Before, the call parsed (and
 * scanned for depth) the model's text a second time. `JSON.parse` is watched, not replaced.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { outcomeOf } from '../support/collect.js';
import { echoTool } from '../support/test-tools.js';

afterEach(() => vi.restoreAllMocks());

/** Runs one step that calls `echo` with the raw `args`, then an answer; how often `args` was parsed, and the events. */
async function runWith(args: string) {
  const parse = vi.spyOn(JSON, 'parse');
  const echo = echoTool();
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', args }] }, { text: 'done' }]);
  const { values: events, completed } = await outcomeOf(new ReActAgent({ model, tools: [echo] }).stream('Say it'));
  const parses = parse.mock.calls.filter(([text]) => text === args).length;
  parse.mockRestore();
  expect(completed).toBe(true);
  return { events, parses, echo };
}

describe('a tool call’s arguments are parsed once', () => {
  it('valid arguments: one parse, the same value in every event and in the tool', async () => {
    // Longer than the depth limit, so the depth scan runs on them too.
    const args = JSON.stringify({ text: 'parsed once '.repeat(20) });
    const { events, parses, echo } = await runWith(args);
    expect(parses).toBe(1);
    const expected = JSON.parse(args) as unknown;
    expect(events.find((e) => e.type === 'ReasonEnd')).toMatchObject({ toolCalls: [{ callId: 'c1', name: 'echo', args: expected }] });
    expect(events.find((e) => e.type === 'ActionStart')).toMatchObject({ toolCalls: [{ callId: 'c1', args: expected }] });
    expect(events.find((e) => e.type === 'ToolCallStart')).toMatchObject({ callId: 'c1', args: expected });
    expect(echo.calls.map((c) => c.args)).toEqual([expected]);
  });

  it('malformed arguments: one parse, the raw text in the events and the same error text', async () => {
    const args = '{"text": "never closed';
    const { events, parses, echo } = await runWith(args);
    expect(parses).toBe(1);
    expect(events.find((e) => e.type === 'ReasonEnd')).toMatchObject({ toolCalls: [{ args }] });
    expect(events.find((e) => e.type === 'ToolCallStart')).toMatchObject({ args });
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({
      error: expect.stringMatching(/^The arguments of this echo call are not valid JSON \(.+\)\. Nothing was run; call it again with a JSON object\.$/),
    });
    expect(echo.calls).toHaveLength(0);
  });

  it('arguments nested too deep: one parse, the raw text in the events and the same error text', async () => {
    const args = `{"text":"x","deep":${'['.repeat(150)}${']'.repeat(150)}}`;
    const { events, parses, echo } = await runWith(args);
    expect(parses).toBe(1);
    expect(events.find((e) => e.type === 'ReasonEnd')).toMatchObject({ toolCalls: [{ args }] });
    expect(events.find((e) => e.type === 'ToolCallStart')).toMatchObject({ args });
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({
      error: 'The arguments of this echo call are not valid JSON (arrays and objects nested more than 100 deep, more than any tool takes). Nothing was run; call it again with a JSON object.',
    });
    expect(echo.calls).toHaveLength(0);
  });
});
