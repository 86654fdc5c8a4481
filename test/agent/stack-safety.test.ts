import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MAX_TOOL_CALLS_PER_STEP } from '../../src/agent/defaults.js';
import { ScriptedModel, type ScriptedReply, type ScriptedToolCall } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { createTodoTool } from '../../src/tools/builtin/todo.js';
import type { Tool } from '../../src/tools/tool.js';

/** Subscribes synchronously and reports how the stream ended. */
function runSync(source: ReturnType<ReActAgent['stream']>): { events: AgentEvent[]; completed: boolean; error: unknown } {
  const events: AgentEvent[] = [];
  let completed = false;
  let error: unknown;
  source.subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e), complete: () => (completed = true) });
  return { events, completed, error };
}

const echo: Tool = { name: 'echo', description: 'Echoes.', parameters: { type: 'object' }, execute: () => 'echoed' };

/** `n` calls of `name`, each with arguments of its own (identical calls in a row would trip the doom-loop guard). */
function calls(n: number, name: string, args: (i: number) => ScriptedToolCall['args'] = (i) => ({ n: i }), from = 0): ScriptedToolCall[] {
  return Array.from({ length: n }, (_, i) => ({ id: `c${from + i}`, name, args: args(from + i) }));
}

/**
 * `n` calls of `name` as replies of {@link MAX_TOOL_CALLS_PER_STEP} calls at most (a step
 * may ask for no more), then `last`: the calls of a turn chain through its steps.
 */
function steps(n: number, name: string, last: ScriptedReply, args?: (i: number) => ScriptedToolCall['args']): ScriptedReply[] {
  const replies: ScriptedReply[] = [];
  for (let from = 0; from < n; from += MAX_TOOL_CALLS_PER_STEP) replies.push({ toolCalls: calls(Math.min(MAX_TOOL_CALLS_PER_STEP, n - from), name, args, from) });
  return [...replies, last];
}

describe('the run loop is stack-safe when everything answers synchronously', () => {
  it('2,000 synchronous tool calls in one turn end with exactly one RunEnd, in one synchronous pass', () => {
    const model = new ScriptedModel(steps(2000, 'echo', { text: 'done' }));
    const agent = new ReActAgent({ model, tools: [echo], sessions: new MemorySessionStore() });
    const { events, completed, error } = runSync(agent.stream('go', { sessionId: 's' }));
    expect(error).toBeUndefined();
    expect(completed).toBe(true); // synchronous parts keep the run synchronous
    expect(events.filter((e) => e.type === 'ToolCallEnd')).toHaveLength(2000);
    expect(events.filter((e) => e.type === 'RunEnd')).toEqual([expect.objectContaining({ abnormal: false, text: 'done' })]);
    expect(events.at(-1)?.type).toBe('RunEnd');
  });

  it('the todo tool called 2,000 times in a turn (it emits Plan events) ends with one RunEnd', () => {
    const model = new ScriptedModel(steps(2000, 'todo', { text: 'planned' }, (i) => ({ todos: [{ id: '1', content: `item ${i}`, status: 'pending' }] })));
    const agent = new ReActAgent({ model, tools: [createTodoTool() as Tool] });
    const { events, completed } = runSync(agent.stream('go'));
    expect(completed).toBe(true);
    expect(events.filter((e) => e.type === 'Plan')).toHaveLength(2000);
    expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  });

  it('maxSteps: 2,000 on a synchronous model ends with exactly one RunEnd after 2,000 steps', () => {
    const model = new ScriptedModel((request) => (request.tools?.length ? { toolCalls: [{ name: 'echo', args: {} }] } : { text: 'final' }));
    const agent = new ReActAgent({ model, tools: [echo], maxSteps: 2000, sessions: new MemorySessionStore() });
    const { events, completed } = runSync(agent.stream('go', { sessionId: 'long' }));
    expect(completed).toBe(true);
    const ends = events.filter((e) => e.type === 'RunEnd');
    expect(ends).toEqual([expect.objectContaining({ abnormal: false, text: 'final', steps: 2000 })]);
    expect(model.requests).toHaveLength(2000);
  });

  it('400 (and 5,000) calls of an unknown tool are answered one by one, no RangeError', () => {
    for (const n of [400, 5000]) {
      const model = new ScriptedModel(steps(n, 'nope', { text: 'gave up' }));
      const { events, completed, error } = runSync(new ReActAgent({ model, maxSteps: 100 }).stream('go'));
      expect(error).toBeUndefined();
      expect(completed).toBe(true);
      expect(events.filter((e) => e.type === 'ToolCallEnd' && e.error?.startsWith('Unknown tool "nope"'))).toHaveLength(n);
      expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
    }
  });

  it('an asynchronous first call followed by 3,000 synchronous ones still ends (the queued calls do not nest)', async () => {
    let first = true;
    const mixed: Tool = {
      name: 'mixed',
      description: 'Slow once, then fast.',
      parameters: { type: 'object' },
      execute: () => {
        if (!first) return 'fast';
        first = false;
        return new Promise<string>((resolve) => setTimeout(() => resolve('slow'), 1));
      },
    };
    const model = new ScriptedModel(steps(3000, 'mixed', { text: 'done' }));
    const result = await new ReActAgent({ model, tools: [mixed], maxSteps: 100 }).call('go');
    expect(result).toMatchObject({ abnormal: false, text: 'done', steps: Math.ceil(3000 / MAX_TOOL_CALLS_PER_STEP) + 1 });
  });

  it('call() on 2,000 synchronous steps resolves with the result', async () => {
    const model = new ScriptedModel((request) => (request.tools?.length ? { toolCalls: [{ name: 'echo', args: {} }] } : { text: 'final' }));
    const result = await new ReActAgent({ model, tools: [echo], maxSteps: 2000 }).call('go');
    expect(result).toMatchObject({ abnormal: false, text: 'final', steps: 2000 });
  });
});

describe('isAgentEvent on hostile values', () => {
  it('walks 50,000 nested TaskWraps in a loop: no RangeError, and the innermost event decides', async () => {
    const { isAgentEvent } = await import('../../src/events/guards.js');
    const wrap = (inner: unknown): unknown => ({ type: 'TaskWrap', runId: 'r', agentName: 'a', parentRunId: 'p', taskId: 't', taskIndex: 1, taskAgentName: 'a', taskDescription: 'd', multitask: false, event: inner });
    let good: unknown = { type: 'ActionEnd', runId: 'r', agentName: 'a', step: 1 };
    let bad: unknown = { type: 'Nope', runId: 'r', agentName: 'a' };
    for (let i = 0; i < 50_000; i++) {
      good = wrap(good);
      bad = wrap(bad);
    }
    expect(isAgentEvent(good)).toBe(true);
    expect(isAgentEvent(bad)).toBe(false);
  });
});
