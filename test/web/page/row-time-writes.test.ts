/**
 * The page redraws on every batch of events and every 250 ms; a running row whose task did
 * not change shows only its time moving. With 10,000 running tasks, reading and writing each
 * such row's text every frame took 30 ms: a row's time is written only when the text it
 * shows (`1.2s`) moves, and otherwise its elements are not touched. The views draw into an
 * in-memory document (`fake-dom.ts`), whose meta elements here count every access.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { TreeView } from '../../../src/web/page/tree-view.js';
import { fakeDocument, FakeElement } from './fake-dom.js';

const TASKS = 200;

beforeAll(() => {
  vi.stubGlobal('document', fakeDocument);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

/** A main run and `TASKS` tasks under it, all started at 0 and still running. */
function running(): TaskTreeState {
  const events: AgentEvent[] = [{ type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'split it' }];
  for (let i = 1; i <= TASKS; i += 1) {
    const child: AgentEvent = { type: 'RunStart', runId: `c${i}`, agentName: 'w', sessionId: `t${i}`, prompt: 'p' };
    events.push({ type: 'TaskWrap', runId: `c${i}`, agentName: 'w', parentRunId: 'main', taskId: `t${i}`, taskIndex: i, taskAgentName: 'w', taskDescription: `task ${i}`, multitask: true, event: child });
  }
  return events.reduce((s, e) => reduceTree(s, e, 0), createTreeState());
}

/** Every element below `root` of class `className`. */
function all(root: FakeElement, className: string): FakeElement[] {
  return root.children.flatMap((child) => [...(child.className.split(' ').includes(className) ? [child] : []), ...all(child, className)]);
}

/** Makes each element count every read and write of its text and its `hidden` flag. */
function countAccess(elements: readonly FakeElement[]): { reads: number; writes: number } {
  const counts = { reads: 0, writes: 0 };
  for (const element of elements) {
    for (const key of ['textContent', 'hidden'] as const) {
      let value: unknown = element[key];
      Object.defineProperty(element, key, {
        get: () => (counts.reads++, value),
        set: (next: unknown) => void (counts.writes++, (value = next)),
      });
    }
  }
  return counts;
}

describe("the page's tree, the times of running rows", () => {
  it('a frame whose shown times did not move touches no row; one where they moved writes each time once', () => {
    const list = new FakeElement('ul');
    const tree = new TreeView(list);
    const state = running();
    tree.draw(state.root, 1_000);
    const metas = all(list, 'meta');
    expect(metas).toHaveLength(TASKS + 1);
    expect(metas.every((meta) => meta.textContent === '1.0s')).toBe(true);
    const counts = countAccess(metas);

    tree.draw(state.root, 1_040); // still 1.0s on every row
    expect(counts).toEqual({ reads: 0, writes: 0 });

    tree.draw(state.root, 1_100); // 1.1s now
    expect(counts.writes).toBe(TASKS + 1);
    expect(metas.every((meta) => meta.textContent === '1.1s')).toBe(true);
  });
});
