/**
 * What a frame of the page reads of a node with 20,000 tool calls: the row's count and the
 * approvals waiting come from the counts the reducer keeps, so a frame after an item does
 * not read the node's `tools` (which makes the array of all 20,000 calls, for each new state
 * of the node) while its list of calls is closed. Opened, the list shows the last calls and
 * follows new ones. The views draw into an in-memory document (`fake-dom.ts`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree, waitingApprovals, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { CALLS_SHOWN } from '../../../src/web/page/tool-calls-view.js';
import { TreeView } from '../../../src/web/page/tree-view.js';
import { countReads } from '../../adapters/task-tree/count-reads.js';
import { fakeDocument, FakeElement } from './fake-dom.js';

const N = 20_000;
const base = { runId: 'main', agentName: 'main' };
const start = (i: number): AgentEvent => ({ type: 'ToolCallStart', ...base, step: i, callId: `c${i}`, toolName: 'read', args: { path: `f${i}.ts` } });
const end = (i: number): AgentEvent => ({ type: 'ToolCallEnd', ...base, step: i, callId: `c${i}`, toolName: 'read', text: 'ok', durationMs: 1 });
const ask = (i: number): AgentEvent => ({ type: 'HITLPending', ...base, approvalId: `a${i}`, callId: `c${i}`, toolName: 'read', args: { path: `f${i}.ts` }, reason: 'rule' });

beforeAll(() => {
  vi.stubGlobal('document', fakeDocument);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('a frame of the page on a node of 20,000 tool calls', () => {
  let made: TaskTreeState = reduceTree(createTreeState(), { type: 'RunStart', ...base, sessionId: 's', prompt: 'p' }, 0);
  for (let i = 0; i < N; i += 1) made = reduceTree(reduceTree(made, start(i), i), end(i), i);
  const built = made;

  it("reads neither the node's calls for its row nor for the approvals, while its list is closed", () => {
    const list = new FakeElement('ul');
    const tree = new TreeView(list);
    const frames: AgentEvent[] = [start(N), ask(N), start(N + 1), end(N + 1)];
    let state = built;
    let reads = countReads(state.root!, 'tools');
    tree.draw(state.root, 0);
    const all = [reads()];
    frames.forEach((event, f) => {
      state = reduceTree(state, event, N + f);
      reads = countReads(state.root!, 'tools');
      tree.draw(state.root, N + f); // the row changed: written whole
      const waiting = waitingApprovals(state);
      tree.draw(state.root, N + f + 1); // a clock tick: its time only
      all.push(reads());
      expect(waiting.map((a) => a.callId)).toEqual(f === 0 ? [] : [`c${N}`]);
    });
    expect(all).toEqual([0, 0, 0, 0, 0]);
    expect(list.find('meta')!.textContent).toContain('20,002 tool calls');
  });

  it('shows the last calls once the list is opened (earlier ones behind a button), and new ones on the next frames', () => {
    const list = new FakeElement('ul');
    const tree = new TreeView(list);
    let state = reduceTree(built, ask(N), N);
    tree.draw(state.root, 0);
    list.find('row')!.click();
    const calls = list.find('tool-calls')!;
    expect(calls.hidden).toBe(false);
    const items = () => calls.children.filter((child) => child.className === 'tool-call');
    expect(items()).toHaveLength(CALLS_SHOWN);
    expect(list.find('show-earlier')!.hidden).toBe(false);
    state = reduceTree(state, start(N + 1), N + 1);
    tree.draw(state.root, N + 1);
    expect(items()).toHaveLength(CALLS_SHOWN);
    expect(items().at(-1)!.dataset).toMatchObject({ status: 'running', tool: 'read' });
    expect(items().at(-2)!.dataset.status).toBe('waiting');
  });
});
