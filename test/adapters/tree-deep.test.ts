/**
 * The terminal tree and the UI DTOs against `TaskWrap`s nested far deeper than any engine
 * nests them (one per level of delegation): nothing may overflow the stack or throw out of a
 * subscriber, and the work per event stays proportional to the event.
 */
import { Writable } from 'node:stream';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { createTreeState, liveTree, reduceTree, renderTree, toUiItem } from '../../src/adapters/index.js';

/** `depth` TaskWraps around one event, built in a loop. */
function nested(depth: number, inner: AgentEvent): AgentEvent {
  let event = inner;
  for (let i = depth; i >= 1; i--) {
    event = {
      type: 'TaskWrap', runId: `run_${i}`, agentName: 'explore', parentRunId: `run_${i - 1}`, taskId: `task_${i}`,
      taskIndex: 1, taskAgentName: 'explore', taskDescription: `level ${i}`, multitask: false, event,
    };
  }
  return event;
}

const start = (depth: number): AgentEvent => nested(depth, { type: 'RunStart', runId: `run_${depth}`, agentName: 'explore', sessionId: 's', prompt: 'p' });
const metrics = { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 };
const end = (depth: number): AgentEvent => nested(depth, { type: 'RunEnd', runId: `run_${depth}`, agentName: 'explore', text: 'ok', abnormal: false, metrics, steps: 1 });

describe('deep TaskWrap nesting', () => {
  it('reduceTree leaves out an event nested more than 64 tasks deep instead of overflowing the stack', () => {
    const root = reduceTree(createTreeState(), start(0), 0);
    expect(reduceTree(root, start(50_000), 0)).toBe(root);
    expect(reduceTree(root, end(10_000), 0)).toBe(root);
  });

  it('draws tasks up to 64 deep', () => {
    let state = reduceTree(createTreeState(), start(0), 0);
    state = reduceTree(state, start(64), 0);
    const lines = renderTree(state, { now: 0, width: 400 }).split('\n');
    expect(lines).toHaveLength(65);
    expect(lines.at(-1)).toContain('explore level 64');
    state = reduceTree(state, end(0), 0); // the run's end settles every task under it
    expect(renderTree(state, { now: 0, width: 400 }).split('\n')).toHaveLength(65);
  });

  it('liveTree on a terminal passes a 50,000-deep event through and completes', async () => {
    const written: string[] = [];
    const output = Object.assign(
      new Writable({ write: (chunk: Buffer, _encoding, callback) => (written.push(chunk.toString()), callback()) }),
      { isTTY: true, columns: 80, hasColors: () => false },
    );
    const events = [start(0), start(50_000), end(50_000), end(0)];
    const passed = await lastValueFrom(from(events).pipe(liveTree({ output }), toArray()));
    expect(passed).toEqual(events);
    expect(written.join('')).toContain('✔ explore p');
  });

  it('toUiItem reports a 50,000-deep event with its depth', () => {
    expect(toUiItem(start(50_000))).toMatchObject({ kind: 'task-start', depth: 50_000, taskId: 'task_50000' });
  });
});
