/**
 * fast-check arbitraries of whole runs as their event streams: steps with text and thinking
 * deltas, tool calls (every run's calls named `call_<step>_<n>`: unique in a run, repeated
 * across children as real models' ids are), `multitask` calls whose children (to depth 2) interleave, wrapped in
 * `TaskWrap`s, and end with their own `RunEnd` (sometimes abnormal) or `RunCancelled`. The
 * main run ends with its `RunEnd` (sometimes abnormal), or the stream is cut: an error, or a
 * completion without `RunEnd`.
 *
 * @module
 */
import fc from 'fast-check';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';

/** One step's plan. */
interface StepPlan {
  readonly thinking: readonly string[];
  readonly text: readonly string[];
  readonly calls: ReadonlyArray<{ readonly delegate: boolean; readonly children: readonly RunPlan[]; readonly order: readonly number[] }>;
}

/** One run's plan. */
export interface RunPlan {
  readonly steps: readonly StepPlan[];
  readonly ending: 'done' | 'abnormal' | 'cancelled';
  readonly description: string;
}

const piece = fc.string({ minLength: 1, maxLength: 6 });

function runPlan(depth: number): fc.Arbitrary<RunPlan> {
  const call = fc.record({
    delegate: depth < 2 ? fc.boolean() : fc.constant(false),
    children: depth < 2 ? fc.array(fc.constant(null).chain(() => runPlan(depth + 1)), { minLength: 1, maxLength: 3 }) : fc.constant([]),
    order: fc.array(fc.nat(), { maxLength: 60 }),
  });
  const step = fc.record({ thinking: fc.array(piece, { maxLength: 2 }), text: fc.array(piece, { maxLength: 3 }), calls: fc.array(call, { maxLength: 2 }) });
  return fc.record({
    steps: fc.array(step, { minLength: 1, maxLength: 3 }),
    ending: depth === 0 ? fc.constantFrom('done' as const, 'done' as const, 'abnormal' as const) : fc.constantFrom('done' as const, 'abnormal' as const, 'cancelled' as const),
    description: fc.constantFrom('Count files', 'Read docs', 'Count files', 'List tests'),
  });
}

/** A whole main run, and how its stream ends. */
export const mainRun = fc.record({ plan: runPlan(0), cut: fc.constantFrom('none', 'none', 'none', 'error', 'complete') as fc.Arbitrary<'none' | 'error' | 'complete'>, cutAt: fc.nat() });

let counter = 0;

/** The events of a planned run (`runId` its own), its children's wrapped as its stream carries them. */
export function eventsOf(plan: RunPlan, runId: string, agentName: string): AgentEvent[] {
  const base = { runId, agentName };
  const out: AgentEvent[] = [{ type: 'RunStart', ...base, sessionId: `ses_${runId}`, prompt: 'go' }];
  plan.steps.forEach((s, i) => {
    const step = i + 1;
    out.push({ type: 'ReasonStart', ...base, step });
    for (const text of s.thinking) out.push({ type: 'ReasonDelta', ...base, step, kind: 'thinking', text });
    for (const text of s.text) out.push({ type: 'ReasonDelta', ...base, step, kind: 'text', text });
    const toolCalls = s.calls.map((c, n) => ({ callId: `call_${step}_${n}`, name: c.delegate ? 'multitask' : 'read', args: { n } }));
    out.push({ type: 'ReasonEnd', ...base, step, text: s.text.join(''), toolCalls, durationMs: 1 });
    if (toolCalls.length === 0) return;
    out.push({ type: 'ActionStart', ...base, step, toolCalls });
    s.calls.forEach((c, n) => {
      const callId = `call_${step}_${n}`;
      out.push({ type: 'ToolCallStart', ...base, step, callId, toolName: toolCalls[n]!.name, args: { n } });
      if (c.delegate) out.push(...interleaved(c.children, c.order, runId));
      out.push({ type: 'ToolCallEnd', ...base, step, callId, toolName: toolCalls[n]!.name, text: 'result', durationMs: 1 });
    });
    out.push({ type: 'ActionEnd', ...base, step });
  });
  if (plan.ending === 'cancelled') out.push({ type: 'RunCancelled', ...base, reason: 'cancelled by a test' });
  else out.push({ type: 'RunEnd', ...base, text: plan.steps.at(-1)!.text.join(''), abnormal: plan.ending === 'abnormal', ...(plan.ending === 'abnormal' ? { error: 'it broke' } : {}), metrics: EMPTY_METRICS, steps: plan.steps.length });
  return out;
}

/** Children of one `multitask` call, wrapped, their events interleaved in the order `order` picks. */
function interleaved(children: readonly RunPlan[], order: readonly number[], parentRunId: string): AgentEvent[] {
  const queues = children.map((child, i) => {
    const childRunId = `run_child_${++counter}`;
    const taskId = `task_${counter}`;
    return eventsOf(child, childRunId, 'alpha').map((event): AgentEvent => ({
      type: 'TaskWrap',
      runId: childRunId,
      agentName: 'alpha',
      parentRunId,
      taskId,
      taskIndex: i + 1,
      taskAgentName: 'alpha',
      taskDescription: child.description,
      multitask: true,
      event,
    }));
  });
  const out: AgentEvent[] = [];
  let k = 0;
  while (queues.some((q) => q.length > 0)) {
    const live = queues.filter((q) => q.length > 0);
    out.push(live[(order[k++ % Math.max(order.length, 1)] ?? 0) % live.length]!.shift()!);
  }
  return out;
}
