import { map, NEVER, timer, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own, record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

// A tool's own `timeoutMs` replaces the agent's `toolTimeoutMs` (the delegation tools use
// Infinity: their children are bounded by their own limits). In virtual time.

/** A tool that answers after `afterMs` (never when undefined), with its own timeout. */
function slowTool(scheduler: TestScheduler, timeoutMs: number | undefined, afterMs?: number): Tool & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    name: 'slow',
    description: 'Takes its time.',
    parameters: { type: 'object' },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    signals,
    execute: (_args, context): Observable<string> => {
      signals.push(context.signal);
      return afterMs === undefined ? NEVER : timer(afterMs, scheduler).pipe(map(() => 'finally'));
    },
  };
}

/** Runs one call of the tool, then an answer; returns the tool-call and end lines of the timeline. */
function runWith(toolTimeoutMs: number, make: (scheduler: TestScheduler) => Tool & { signals: AbortSignal[] }): { log: string[]; signals: AbortSignal[] } {
  const scheduler = createTestScheduler();
  let log: string[] = [];
  let tool: (Tool & { signals: AbortSignal[] }) | undefined;
  scheduler.run(() => {
    tool = make(scheduler);
    const model = new ScriptedModel([{ toolCalls: [{ name: 'slow', args: {} }] }, { text: 'ok' }], { scheduler });
    const agent = new ReActAgent({ model, tools: [tool], toolTimeoutMs });
    log = timeline(scheduler, agent.stream('go'), (e) => (e.type === 'ToolCallEnd' ? `ToolCallEnd ${e.error ?? e.text}` : e.type));
  });
  return { log: log.filter((line) => /ToolCall|RunEnd/.test(line)), signals: tool!.signals };
}

describe('a tool’s own timeoutMs', () => {
  it('a shorter one cuts the call at its own deadline, not the agent’s', () => {
    const { log, signals } = runWith(1_000, (s) => slowTool(s, 40));
    expect(log).toEqual(['0 ToolCallStart', '40 ToolCallEnd The slow tool failed: it did not finish within 40 ms and was stopped', '40 RunEnd']);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('Infinity lets the call outlive the agent’s toolTimeoutMs', () => {
    const { log, signals } = runWith(50, (s) => slowTool(s, Number.POSITIVE_INFINITY, 200));
    expect(log).toEqual(['0 ToolCallStart', '200 ToolCallEnd finally', '200 RunEnd']);
    expect(signals[0]?.aborted).toBe(true); // released once the call ended
  });

  it('Infinity schedules no timer at all (Node would fire an Infinity timer after 1 ms)', async () => {
    vi.useFakeTimers();
    try {
      const timersDuringCall = async (timeoutMs: number | undefined): Promise<number> => {
        const gate = createGate();
        const tool: Tool = {
          name: 'slow',
          description: 'Waits for the gate.',
          parameters: { type: 'object' },
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          execute: () => gate.promise.then(() => 'opened'),
        };
        const model = new ScriptedModel([{ toolCalls: [{ name: 'slow', args: {} }] }, { text: 'ok' }]);
        const run = record(new ReActAgent({ model, tools: [tool], toolTimeoutMs: 50 }).stream('go'));
        // The run got to the tool call synchronously; the tool now waits.
        expect(own(run.events, 'ToolCallStart')).toHaveLength(1);
        const timers = vi.getTimerCount();
        gate.open();
        await run.done;
        expect(own(run.events, 'ToolCallEnd')[0]).toMatchObject({ text: 'opened' });
        return timers;
      };
      expect(await timersDuringCall(Number.POSITIVE_INFINITY)).toBe(0);
      expect(await timersDuringCall(undefined)).toBe(1); // the agent's deadline
    } finally {
      vi.useRealTimers();
    }
  });

  it('without one, the agent’s toolTimeoutMs applies', () => {
    const { log } = runWith(50, (s) => slowTool(s, undefined, 200));
    expect(log).toEqual(['0 ToolCallStart', '50 ToolCallEnd The slow tool failed: it did not finish within 50 ms and was stopped', '50 RunEnd']);
  });
});

describe('a hand-built tool whose own timeoutMs is no timeout', () => {
  it.each([0, -5, Number.NaN, '5000' as unknown as number])('%s: the call fails saying how to fix the tool, and nothing runs', async (timeoutMs) => {
    let ran = 0;
    const tool: Tool = { name: 'odd', description: 'd', parameters: { type: 'object' }, timeoutMs, execute: () => (ran++, 'ran') };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'odd', args: {} }] }, { text: 'ok' }]);
    const events = await collect(new ReActAgent({ model, tools: [tool] }).stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.error).toBe(
      `The odd tool cannot run: its timeoutMs is ${String(timeoutMs)}; it must be a number of milliseconds of at least 1, or Infinity. Fix the tool's definition.`,
    );
    expect(ran).toBe(0);
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false, text: 'ok' });
  });
});
