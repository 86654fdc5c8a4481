/**
 * The reducer finds nodes through an index instead of walking the tree: for any stream of
 * events (tasks nested, interleaved, queued out of order, resumed, cancelled, sharing run
 * ids, joined late, reduced again from an older state) it builds exactly the tree the
 * walking reducer built, and every state it gave stays that tree (read at once, late, or
 * never), with no node going under one that has ended. And with 10,000 tasks it still
 * finishes (the walk did not).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, settleTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import { toUiItem } from '../../../src/adapters/ui-dto.js';
import type { AgentEvent } from '../../../src/events/index.js';
import type { TaskFrame } from '../../../src/events/operators/unwrap-task-events.js';
import { expectNoneGoingUnderEnded } from './none-going-under-ended.js';
import { referenceReduceTree } from './reference-reduce-tree.js';

const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };

interface Task {
  readonly parent: number; // -1: the main run
  readonly runId: string;
  readonly taskIndex: number;
  readonly multitask: boolean;
}

// Few run ids, so two tasks sometimes claim the same one (a broken or hostile stream).
const taskSpec = fc.record({ parent: fc.nat(), runId: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'main'), taskIndex: fc.integer({ min: 1, max: 4 }), multitask: fc.boolean() });
const kinds = ['queued', 'start', 'restart', 'delta', 'tool-start', 'tool-end', 'pending', 'decided', 'end', 'cancel', 'compaction', 'item', 'settle'] as const;
const step = fc.record({ task: fc.integer({ min: -1, max: 7 }), kind: fc.constantFrom(...kinds), n: fc.nat({ max: 3 }) });
const world = fc.record({
  tasks: fc.array(taskSpec, { minLength: 1, maxLength: 8 }).map((specs) => specs.map((s, i): Task => ({ ...s, parent: i === 0 ? -1 : (s.parent % (i + 1)) - 1 }))),
  steps: fc.array(step, { maxLength: 60 }),
});

/** The frames from the main run down to task `i`, outermost first. */
function frames(tasks: readonly Task[], i: number): TaskFrame[] {
  if (i < 0) return [];
  const t = tasks[i]!;
  const parentRun = t.parent < 0 ? 'main' : tasks[t.parent]!.runId;
  const frame: TaskFrame = { runId: t.runId, agentName: `a${i}`, parentRunId: parentRun, taskId: `t${i}`, taskIndex: t.taskIndex, taskAgentName: `a${i}`, taskDescription: `task ${i}`, multitask: t.multitask };
  return [...frames(tasks, t.parent), frame];
}

function wrapIn(path: readonly TaskFrame[], event: AgentEvent): AgentEvent {
  return path.reduceRight<AgentEvent>((inner, frame) => ({ type: 'TaskWrap', ...frame, runId: inner.runId, agentName: inner.agentName, event: inner }), event);
}

type Step = { task: number; kind: (typeof kinds)[number]; n: number };

/** The event (or item) of one step; `settle` is not one. */
function eventOf(tasks: readonly Task[], { task, kind, n }: Step): AgentEvent | undefined {
  const i = Math.min(task, tasks.length - 1);
  const path = frames(tasks, i);
  const runId = i < 0 ? 'main' : tasks[i]!.runId;
  const base = { runId, agentName: i < 0 ? 'main' : `a${i}` };
  const call = { step: 1, callId: `c${n}`, toolName: 'bash' };
  switch (kind) {
    case 'queued': {
      if (i < 0) return undefined;
      const own = path.at(-1)!;
      const queued: AgentEvent = { type: 'TaskQueued', runId: own.parentRunId, agentName: 'p', parentRunId: own.parentRunId, taskId: own.taskId, taskIndex: own.taskIndex, taskAgentName: own.taskAgentName, taskDescription: own.taskDescription };
      return wrapIn(path.slice(0, -1), queued);
    }
    case 'start':
    case 'restart':
      return wrapIn(path, { type: 'RunStart', ...base, ...(kind === 'restart' ? { runId: `${runId}-again` } : {}), sessionId: 's', prompt: `p${n}` });
    case 'delta':
      return wrapIn(path, { type: 'ReasonDelta', ...base, step: n, kind: 'text', text: `d${n} ` });
    case 'tool-start':
      return wrapIn(path, { type: 'ToolCallStart', ...base, ...call, args: { command: `ls ${n}` } });
    case 'tool-end':
      return wrapIn(path, { type: 'ToolCallEnd', ...base, ...call, text: 'ok', ...(n === 0 ? { error: 'no' } : {}), durationMs: 1 });
    case 'pending':
      return wrapIn(path, { type: 'HITLPending', ...base, approvalId: `a${n}`, callId: `c${n}`, toolName: 'bash', args: {}, reason: 'asks' });
    case 'decided':
      return wrapIn(path, { type: 'HITLDecided', ...base, approvalId: `a${n}`, callId: `c${n}`, toolName: 'bash', decision: n === 0 ? 'reject' : 'approve' });
    case 'end':
      return wrapIn(path, { type: 'RunEnd', ...base, text: `done ${n}`, abnormal: n === 0, ...(n === 0 ? { error: 'bad' } : {}), metrics, steps: 1 });
    case 'cancel':
      return wrapIn(path, { type: 'RunCancelled', ...base, reason: 'stop' });
    case 'compaction':
      return wrapIn(path, {
        type: 'Compaction', ...base, sessionId: 's', reason: 'manual', contextWindow: 10, tokensBefore: 9, tokensAfter: 5, prunedToolResults: 1, summarisedMessages: 0, archived: false,
      });
    default:
      return wrapIn(path, { type: 'ReasonDelta', ...base, step: 1, kind: 'text', text: 'x' });
  }
}

/** One step through a reducer: an event, its UI item alone (`item`: no outer frames), or a settle. */
function advance(reduce: typeof reduceTree, state: TaskTreeState, tasks: readonly Task[], s: Step, now: number): TaskTreeState {
  if (s.kind === 'settle') return settleTree(state, now, 'stopped', s.n === 0 ? 'cancelled' : 'failed');
  const event = eventOf(tasks, s);
  if (event === undefined) return state;
  const item = s.kind === 'item' ? toUiItem(event) : undefined;
  return reduce(state, item ?? event, now);
}

/** The main run's start, then `n` multitask tasks of its own started (indexes 3 and up: the random tasks' 1 to 4 go among them). */
function crowded(n: number): AgentEvent[] {
  const tasks = Array.from({ length: n }, (_, k): AgentEvent => {
    const frame = { runId: `f${k}`, agentName: 'f', parentRunId: 'main', taskId: `f${k}`, taskIndex: k + 3, taskAgentName: 'f', taskDescription: `filler ${k}`, multitask: true };
    return wrapIn([frame], { type: 'RunStart', runId: `f${k}`, agentName: 'f', sessionId: 's', prompt: 'p' });
  });
  return [{ type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, ...tasks];
}

describe('reduceTree with its index', () => {
  it('builds the same tree as the walking reducer, after every event of random streams', () => {
    fc.assert(
      fc.property(world, ({ tasks, steps }) => {
        let indexed = createTreeState();
        let walked = createTreeState();
        steps.forEach((s, now) => {
          indexed = advance(reduceTree, indexed, tasks, s, now);
          walked = advance(referenceReduceTree, walked, tasks, s, now);
          expect(indexed).toEqual(walked);
          // nested tasks, ends, cancels, restarts, settles in any order: nothing goes under an ended node
          expectNoneGoingUnderEnded(indexed);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('an older state reduced again (as React strict mode does) gives the same tree as the walking reducer', () => {
    fc.assert(
      fc.property(world, fc.nat(), ({ tasks, steps }, cut) => {
        const states: TaskTreeState[] = [createTreeState()];
        for (const [now, s] of steps.entries()) states.push(advance(reduceTree, states.at(-1)!, tasks, s, now));
        // from an older state, the rest of the stream again: a fresh line that must not reuse the newer index
        const from = steps.length === 0 ? 0 : cut % steps.length;
        let again = states[from]!;
        let walked = states[from]!;
        for (const [k, s] of steps.slice(from).entries()) {
          again = advance(reduceTree, again, tasks, s, from + k);
          walked = advance(referenceReduceTree, walked, tasks, s, from + k);
          expect(again).toEqual(walked);
        }
        expect(again).toEqual(states.at(-1));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every state as it was: read late, in any order, or as the stream goes, each is the walking reducer\'s', () => {
    fc.assert(
      fc.property(world, fc.array(fc.nat(), { maxLength: 20 }), fc.nat({ max: 100 }), ({ tasks, steps }, picks, crowd) => {
        // the main run first gets up to 100 tasks of its own: past a few dozen, its children are a shared list
        const start = crowded(crowd);
        const indexed: TaskTreeState[] = [start.reduce((s, e) => reduceTree(s, e, 0), createTreeState())];
        const walked: TaskTreeState[] = [start.reduce((s, e) => referenceReduceTree(s, e, 0), createTreeState())];
        const seen = new Map<number, string>(); // states read while the stream went on, as they read then
        for (const [now, s] of steps.entries()) {
          indexed.push(advance(reduceTree, indexed.at(-1)!, tasks, s, now));
          walked.push(advance(referenceReduceTree, walked.at(-1)!, tasks, s, now));
          if (picks.includes(now)) seen.set(now + 1, JSON.stringify(indexed[now + 1]));
        }
        // some states read only now, in a random order, then every one
        for (const pick of picks) expect(indexed[pick % indexed.length]).toEqual(walked[pick % walked.length]);
        indexed.forEach((state, k) => expect(state).toEqual(walked[k]));
        for (const [k, json] of seen) expect(JSON.stringify(indexed[k])).toBe(json);
        // an older state reduced again: the same end, and no state it came from changed
        const from = picks.length === 0 ? 0 : picks[0]! % indexed.length;
        const again = steps.slice(from).reduce((state, s, k) => advance(reduceTree, state, tasks, s, from + k), indexed[from]!);
        expect(again).toEqual(walked.at(-1));
        indexed.forEach((state, k) => expect(state).toEqual(walked[k]));
      }),
      { numRuns: 300 },
    );
  });

  it('a state made elsewhere (copied, restored from JSON) is indexed on first use', () => {
    const tasks: Task[] = [{ parent: -1, runId: 'r1', taskIndex: 1, multitask: true }, { parent: 0, runId: 'r2', taskIndex: 1, multitask: false }];
    const steps: Step[] = [{ task: -1, kind: 'start', n: 0 }, { task: 0, kind: 'start', n: 0 }, { task: 1, kind: 'start', n: 0 }];
    const state = steps.reduce((s, st, now) => advance(reduceTree, s, tasks, st, now), createTreeState());
    const copy = JSON.parse(JSON.stringify(state)) as TaskTreeState;
    const delta: Step = { task: 1, kind: 'delta', n: 1 };
    expect(advance(reduceTree, copy, tasks, delta, 9)).toEqual(advance(referenceReduceTree, copy, tasks, delta, 9));
    expect(advance(reduceTree, copy, tasks, delta, 9).root?.children[0]?.children[0]?.tail).toBe('d1 ');
  });
});

describe('reduceTree with 10,000 tasks in one multitask', () => {
  it('folds all 60,000 events: each task in its place, in index order, with its outcome', () => {
    const n = 10_000;
    const wrap = (i: number, event: AgentEvent): AgentEvent => ({
      type: 'TaskWrap', runId: `child_${i}`, agentName: 'worker', parentRunId: 'main', taskId: `task_${i}`,
      taskIndex: i, taskAgentName: 'worker', taskDescription: `task ${i}`, multitask: true, event,
    });
    let state = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
    // as a pool of 8 does it: tasks 9 to n are announced as queued, then 1 to 8 start (each goes before 9), then all run
    for (let i = 9; i <= n; i += 1) {
      state = reduceTree(state, { type: 'TaskQueued', runId: 'main', agentName: 'main', parentRunId: 'main', taskId: `task_${i}`, taskIndex: i, taskAgentName: 'worker', taskDescription: `task ${i}` }, 0);
    }
    for (let i = 1; i <= n; i += 1) {
      const r = `child_${i}`;
      const events: AgentEvent[] = [
        { type: 'RunStart', runId: r, agentName: 'worker', sessionId: `task_${i}`, prompt: 'p' },
        { type: 'ReasonDelta', runId: r, agentName: 'worker', step: 1, kind: 'text', text: `hello ${i}` },
        { type: 'ToolCallStart', runId: r, agentName: 'worker', step: 1, callId: 'c', toolName: 'read', args: { path: 'a' } },
        { type: 'ToolCallEnd', runId: r, agentName: 'worker', step: 1, callId: 'c', toolName: 'read', text: 'x', durationMs: 1 },
        { type: 'RunEnd', runId: r, agentName: 'worker', text: '', abnormal: i % 1000 === 0, metrics, steps: 1 },
      ];
      for (const e of events) state = reduceTree(state, wrap(i, e), i);
    }
    const children = state.root!.children;
    expect(children).toHaveLength(n);
    expect(children.map((c) => c.taskIndex)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(children.filter((c) => c.status === 'failed')).toHaveLength(10);
    expect(children[4_998]).toMatchObject({ key: 'main/task_4999', runId: 'child_4999', status: 'done', tail: 'hello 4999', tokens: 3 });
    expect(children[9_999]!.tools).toEqual([{ callId: 'c', toolName: 'read', args: { path: 'a' }, label: 'read a', step: 1, status: 'done', result: 'x', durationMs: 1 }]);
  });
});
