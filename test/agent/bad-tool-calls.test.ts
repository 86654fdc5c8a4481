import { NEVER, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent, ToolCallEndEvent } from '../../src/events/agent-event.js';
import type { JsonValue } from '../../src/events/json.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';
import { echoTool, throwingTool } from '../support/test-tools.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

interface Outcome {
  readonly events: AgentEvent[];
  readonly end: ToolCallEndEvent;
  /** The tool message the model read on its next request. */
  readonly toolMessage: string;
  readonly echoCalls: number;
}

/** Runs one step with a single tool call `name(args)`, then a step that answers; returns what happened. */
async function runOneCall(name: string, args: JsonValue, tools: Tool[] = []): Promise<Outcome> {
  const echo = echoTool();
  const model = new ScriptedModel([{ toolCalls: [{ id: 'bad', name, args }] }, { text: 'I read the error and moved on.' }]);
  const agent = new ReActAgent({ model, tools: [echo, ...tools] });
  const { values: events, completed } = await outcomeOf(agent.stream('Try it'));
  expect(completed).toBe(true);
  // The run goes on: a second step, and a normal end.
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, steps: 2, text: 'I read the error and moved on.' });
  const end = events.find((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd')!;
  const toolMessage = model.requests[1]?.messages.at(-1);
  expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'bad' });
  return { events, end, toolMessage: String(toolMessage?.content), echoCalls: echo.calls.length };
}

/** The failure contract: `error` set, the model reads `ERROR: <error>`. */
function expectReported(outcome: Outcome, pattern: RegExp): void {
  expect(outcome.end.error).toMatch(pattern);
  expect(outcome.end.text).toBe(`ERROR: ${outcome.end.error}`);
  expect(outcome.toolMessage).toBe(outcome.end.text);
}

describe('bad tool calls are reported to the model and the run goes on', () => {
  it('malformed JSON arguments: says they are not valid JSON, keeps the raw text in the events, runs nothing', async () => {
    const outcome = await runOneCall('echo', '{"text": "unterminated');
    expectReported(outcome, /^The arguments of this echo call are not valid JSON \(.+\)\. Nothing was run; call it again with a JSON object\.$/);
    expect(outcome.events.find((e) => e.type === 'ToolCallStart')).toMatchObject({ args: '{"text": "unterminated' });
    expect(outcome.events.find((e) => e.type === 'ReasonEnd')).toMatchObject({ toolCalls: [{ callId: 'bad', args: '{"text": "unterminated' }] });
    expect(outcome.echoCalls).toBe(0);
  });

  it('a property of the wrong type: names the property', async () => {
    const outcome = await runOneCall('echo', { text: 42 });
    expectReported(outcome, /do not match its schema: "text" must be string\. Nothing was run\.$/);
    expect(outcome.echoCalls).toBe(0);
  });

  it('a missing required property: names it', async () => {
    expectReported(await runOneCall('echo', {}), /the arguments must have the property "text"/);
  });

  it('an unexpected property: names it', async () => {
    expectReported(await runOneCall('echo', { text: 'hi', loud: true }), /the arguments has an unknown property "loud"/);
  });

  it('arguments that are JSON but not an object: says they do not match', async () => {
    expectReported(await runOneCall('echo', '["text"]'), /do not match its schema: the arguments must be object/);
  });

  it('an unknown tool: lists the tools that exist', async () => {
    const outcome = await runOneCall('nope', {}, [throwingTool('unused')]);
    expectReported(outcome, /^Unknown tool "nope"\. Nothing was run\. Available tools: echo, explode\.$/);
  });

  it('a tool that throws: reports its message', async () => {
    expectReported(await runOneCall('explode', {}, [throwingTool('kaboom')]), /^The explode tool failed: kaboom$/);
  });

  it('a tool whose promise rejects or whose observable errors: reports the message', async () => {
    const rejecting: Tool = { name: 'reject', description: '', parameters: { type: 'object' }, execute: () => Promise.reject(new Error('disk full')) };
    const erroring: Tool = { name: 'erroring', description: '', parameters: { type: 'object' }, execute: () => throwError(() => new Error('stream broke')) };
    expectReported(await runOneCall('reject', {}, [rejecting]), /^The reject tool failed: disk full$/);
    expectReported(await runOneCall('erroring', {}, [erroring]), /^The erroring tool failed: stream broke$/);
  });

  it('a bad call does not stop the good calls of the same turn', async () => {
    const echo = echoTool();
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'c1', name: 'echo', args: '{oops' }, { id: 'c2', name: 'echo', args: { text: 'fine' } }] },
      { text: 'ok' },
    ]);
    const { values } = await outcomeOf(new ReActAgent({ model, tools: [echo] }).stream('go'));
    const ends = values.filter((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd');
    expect(ends.map((e) => [e.callId, e.error === undefined])).toEqual([
      ['c1', false],
      ['c2', true],
    ]);
    expect(echo.calls.map((c) => c.args)).toEqual([{ text: 'fine' }]);
  });

  it('a tool that exceeds toolTimeoutMs: stopped at the deadline (virtual time), its signal aborted, the run goes on', () => {
    const scheduler = createTestScheduler();
    const signals: AbortSignal[] = [];
    const slow: Tool = {
      name: 'slow',
      description: 'Never finishes.',
      parameters: { type: 'object' },
      execute: (_args, context) => {
        signals.push(context.signal);
        return NEVER;
      },
    };
    let log: string[] = [];
    let model: ScriptedModel | undefined;
    scheduler.run(() => {
      model = new ScriptedModel([{ toolCalls: [{ name: 'slow', args: {} }] }, { text: 'gave up on it' }], { scheduler, chunkDelayMs: 1 });
      const agent = new ReActAgent({ model, tools: [slow], toolTimeoutMs: 50 });
      log = timeline(scheduler, agent.stream('wait'), (e) => (e.type === 'ToolCallEnd' ? `ToolCallEnd ${e.error}` : e.type));
    });
    expect(log.filter((l) => /Tool|RunEnd|\|/.test(l))).toEqual([
      '0 ToolCallStart',
      '50 ToolCallEnd The slow tool failed: it did not finish within 50 ms and was stopped',
      '51 RunEnd',
      '51 |',
    ]);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(model?.requests[1]?.messages.at(-1)?.content).toBe('ERROR: The slow tool failed: it did not finish within 50 ms and was stopped');
  });
});
