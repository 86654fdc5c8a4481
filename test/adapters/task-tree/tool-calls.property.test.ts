/**
 * Tool calls kept in shared lists (from 64 calls a node) fold exactly as plain arrays copied
 * per item did: for any sequence of tool starts, ends, approvals, ends and cancels of runs,
 * restarts, with ids reused and bursts that take nodes past 64 calls, every state's calls
 * equal a plain model's (the old copying fold, written out here, where a call told to a node
 * after its end, a late start or approval, ends at once, and so does a task first told of or
 * restarted after the main run ended, with its calls), read as the stream goes or
 * late; a node's `tools` is a new array exactly when its calls changed; an earlier state
 * reduced again (a fork, even before each item) goes its own way and leaves the later ones
 * theirs; and the rest of the tree is the walking reducer's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState, type ToolCallRecord, type TreeNode } from '../../../src/adapters/task-tree/index.js';
import { toolLabel } from '../../../src/adapters/terminal-tree/tool-label.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { referenceReduceTree } from './reference-reduce-tree.js';

type Op =
  | { readonly kind: 'start' | 'end' | 'fail' | 'ask'; readonly node: number; readonly call: number }
  | { readonly kind: 'decide'; readonly node: number; readonly call: number; readonly approve: boolean }
  | { readonly kind: 'burst'; readonly node: number; readonly count: number }
  | { readonly kind: 'delta' | 'taskEnd' | 'cancel' | 'restart' | 'result'; readonly node: number };

const node = fc.integer({ min: 0, max: 2 }); // 0: the main run; 1, 2: its tasks
const call = fc.integer({ min: 0, max: 4 }); // few ids: reused across steps
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constantFrom('start', 'end', 'fail', 'ask'), node, call }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('decide'), node, call, approve: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('burst'), node, count: fc.integer({ min: 1, max: 70 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constantFrom('delta', 'taskEnd', 'cancel', 'restart', 'result'), node }), weight: 2 },
);
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };

/** `event` of node `k` (the main run, or its task `k`). */
function of(k: number, event: AgentEvent): AgentEvent {
  if (k === 0) return event;
  return { type: 'TaskWrap', runId: `r${k}`, agentName: 'w', parentRunId: 'main', taskId: `t${k}`, taskIndex: k, taskAgentName: 'w', taskDescription: `task ${k}`, multitask: false, event };
}

/** One model node: its calls as plain arrays, new on each change, whether it still goes, and whether it was cancelled. */
interface ModelNode {
  tools: readonly ToolCallRecord[];
  going: boolean;
  cancelled?: boolean;
}

/** The plain fold: what the reducer did when it copied the array per item. */
class Model {
  readonly nodes: Array<ModelNode | undefined> = [{ tools: [], going: true }, undefined, undefined];

  /** The node `k`, made on its first item. */
  seen(k: number): ModelNode {
    return (this.nodes[k] ??= { tools: [], going: true });
  }

  append(k: number, record: ToolCallRecord): void {
    const fresh = this.nodes[k] === undefined;
    this.seen(k).tools = [...this.seen(k).tools, record];
    if (fresh) this.orphan(k);
    this.late(k);
  }

  change(k: number, callId: string, update: (call: ToolCallRecord) => ToolCallRecord): void {
    const fresh = this.nodes[k] === undefined;
    const tools = this.seen(k).tools;
    const at = tools.map((c) => c.callId).lastIndexOf(callId);
    if (at !== -1) this.seen(k).tools = tools.map((c, i) => (i === at ? update(c) : c));
    if (fresh) this.orphan(k);
    this.late(k);
  }

  /** Node `k` seen (made on its first item, which may come after the main run ended). */
  touch(k: number): void {
    const fresh = this.nodes[k] === undefined;
    this.seen(k);
    if (fresh) this.orphan(k);
  }

  /** A task going under the main run once that ended: first told of, or restarted, late; ended at once, its calls too. */
  orphan(k: number): void {
    if (k === 0 || !this.seen(k).going || this.nodes[0]!.going) return;
    this.settle(k, 'failed', 'came after its parent run had ended');
  }

  settle(k: number, status: 'failed' | 'cancelled', error: string): void {
    const m = this.seen(k);
    if (m.tools.some(going)) m.tools = m.tools.map((c) => (going(c) ? { ...c, status, error } : c));
    m.going = false;
    m.cancelled = status === 'cancelled';
  }

  /** A node that has ended keeps nothing going: a call told of after its end is ended at once. */
  late(k: number): void {
    const m = this.seen(k);
    if (m.going || !m.tools.some(going)) return;
    const status = m.cancelled === true ? 'cancelled' : 'failed';
    m.tools = m.tools.map((c) => (going(c) ? { ...c, status, error: 'came after its run had ended' } : c));
  }
}

function going(call: ToolCallRecord): boolean {
  return call.status === 'running' || call.status === 'waiting';
}

/** The events of `o` (a burst: many calls started and ended), each applied to `model` as it is made. */
function* eventsOf(o: Op, step: number, model: Model): Generator<AgentEvent> {
  const k = o.node;
  const runId = k === 0 ? 'main' : `r${k}`;
  const base = { runId, agentName: k === 0 ? 'main' : 'w' };
  const started = (callId: string, s: number): AgentEvent => {
    const args = { path: `f${s}.ts` };
    model.append(k, { callId, toolName: 'read', args, label: toolLabel('read', args), step: s, status: 'running' });
    return of(k, { type: 'ToolCallStart', ...base, step: s, callId, toolName: 'read', args });
  };
  const ended = (callId: string, s: number, error?: string): AgentEvent => {
    model.change(k, callId, (c) => ({ ...c, status: error === undefined ? 'done' : 'failed', result: `out ${s}`, ...(error === undefined ? {} : { error }), durationMs: s }));
    return of(k, { type: 'ToolCallEnd', ...base, step: s, callId, toolName: 'read', text: `out ${s}`, ...(error === undefined ? {} : { error }), durationMs: s });
  };
  switch (o.kind) {
    case 'start':
      yield started(`c${o.call}`, step);
      return;
    case 'end':
      yield ended(`c${o.call}`, step);
      return;
    case 'fail':
      yield ended(`c${o.call}`, step, 'boom');
      return;
    case 'ask': {
      const callId = `c${o.call}`;
      const args = { path: `checked${step}` };
      const asked = { args, label: toolLabel('read', args), status: 'waiting', approval: { approvalId: `a${step}`, reason: 'rule' } } as const;
      if (model.nodes[k]?.tools.some((c) => c.callId === callId) === true) model.change(k, callId, (c) => ({ ...c, ...asked }));
      else model.append(k, { callId, toolName: 'read', step: 0, ...asked });
      yield of(k, { type: 'HITLPending', ...base, approvalId: `a${step}`, callId, toolName: 'read', args, reason: 'rule' });
      return;
    }
    case 'decide': {
      const decision = o.approve ? 'approve' : 'reject';
      model.change(k, `c${o.call}`, (c) => ({ ...c, status: c.status === 'waiting' ? 'running' : c.status, approval: { approvalId: `d${step}`, reason: c.approval?.reason ?? '', decision } }));
      yield of(k, { type: 'HITLDecided', ...base, approvalId: `d${step}`, callId: `c${o.call}`, toolName: 'read', decision });
      return;
    }
    case 'burst':
      for (let i = 0; i < o.count; i += 1) {
        yield started(`b${step}_${i}`, step);
        yield ended(`b${step}_${i}`, step);
      }
      return;
    case 'delta':
      model.touch(k);
      yield of(k, { type: 'ReasonDelta', ...base, step, kind: 'text', text: 'x' });
      return;
    case 'restart':
      model.seen(k).going = true;
      model.seen(k).cancelled = false;
      model.orphan(k);
      yield of(k, { type: 'RunStart', ...base, sessionId: `s${k}`, prompt: 'p' });
      return;
    case 'taskEnd':
    case 'result':
      if (k === 0 && o.kind === 'taskEnd') return;
      if (k === 0) model.nodes.forEach((m, j) => m !== undefined && j > 0 && m.going && model.settle(j, 'failed', 'ended without a result'));
      model.settle(k, 'failed', 'the run ended first');
      yield of(k, { type: 'RunEnd', ...base, text: '', abnormal: false, metrics, steps: 1 });
      return;
    case 'cancel':
      if (k === 0) return;
      model.settle(k, 'cancelled', 'stopped');
      yield of(k, { type: 'RunCancelled', ...base, reason: 'stopped' });
      return;
  }
}

function nodeOf(state: TaskTreeState, k: number): TreeNode | undefined {
  return k === 0 ? state.root : state.root?.children.find((c) => c.key === `main/t${k}`);
}

const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };

describe('reduceTree with tool calls in shared lists', () => {
  it('folds any stream of tool items as the plain copying fold, states kept, arrays new exactly on change', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.boolean(), fc.boolean(), fc.nat(), (ops, readAsItGoes, sideTrips, forkAt) => {
        const model = new Model();
        const events: AgentEvent[] = [START];
        const expected: Array<Array<readonly ToolCallRecord[] | undefined>> = [model.nodes.map((m) => m?.tools)];
        ops.forEach((o, step) => {
          for (const event of eventsOf(o, step + 1, model)) {
            events.push(event);
            expected.push(model.nodes.map((m) => m?.tools));
          }
        });
        const states: TaskTreeState[] = [];
        let state = createTreeState();
        let walked = createTreeState();
        events.forEach((event, now) => {
          if (sideTrips && state.root !== undefined) {
            // a fork of every state: calls of the ids the main line uses, which the main line must not see
            let side = state;
            for (let c = 0; c < 5; c += 1) side = reduceTree(side, { type: 'ToolCallStart', runId: 'main', agentName: 'main', step: -1, callId: `c${c}`, toolName: 'side', args: {} }, now);
            expect(side.root!.tools.at(-1)).toMatchObject({ callId: 'c4', toolName: 'side' });
          }
          state = reduceTree(state, event, now);
          walked = referenceReduceTree(walked, event, now);
          if (readAsItGoes) expect(nodeOf(state, 0)!.tools).toEqual(expected[now]![0]);
          states.push(state);
        });
        expect(state).toEqual(walked);
        states.forEach((s, i) => {
          for (let k = 0; k < 3; k += 1) {
            expect(nodeOf(s, k)?.tools).toEqual(expected[i]![k]);
            // a new array exactly when the calls changed (the model makes a new one then)
            if (i > 0 && expected[i - 1]![k] !== undefined) expect(nodeOf(s, k)!.tools === nodeOf(states[i - 1]!, k)!.tools).toBe(expected[i]![k] === expected[i - 1]![k]);
          }
        });
        // an earlier state reduced again with the same items gives the same tree, and the states stay
        const at = forkAt % events.length;
        const forked = events.slice(at + 1).reduce((s, e, j) => reduceTree(s, e, at + 1 + j), states[at]!);
        expect(forked).toEqual(state);
        expect(nodeOf(states[at]!, 0)!.tools).toEqual(expected[at]![0]);
      }),
      { numRuns: 120 },
    );
  });
});
