/**
 * The page's part of a late approval request: the card of an approval asked in time goes
 * when its task ends, and one asked after the end never shows; the task's row does not say
 * it waits for approval. The page's own views draw into an in-memory document (`fake-dom.ts`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree, waitingApprovals, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { ApprovalsView } from '../../../src/web/page/approvals-view.js';
import { TreeView } from '../../../src/web/page/tree-view.js';
import { fakeDocument, FakeElement } from '../../web/page/fake-dom.js';

const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };
const base = { runId: 'r1', agentName: 'w' };

function task(event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: 'r1', agentName: 'w', parentRunId: 'main', taskId: 't1', taskIndex: 1, taskAgentName: 'w', taskDescription: 'task', multitask: false, event };
}

const ask = (id: string): AgentEvent => task({ type: 'HITLPending', ...base, approvalId: `a_${id}`, callId: id, toolName: 'bash', args: { command: id }, reason: 'bash asks' });

beforeAll(() => {
  vi.stubGlobal('document', fakeDocument);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('the page after an approval asked late', () => {
  it('shows no card for it, and the ended task does not read as waiting for approval', () => {
    const section = new FakeElement('section');
    const cards = new FakeElement('ul');
    const approvals = new ApprovalsView(section, cards, () => Promise.resolve());
    const list = new FakeElement('ul');
    const tree = new TreeView(list);
    let state: TaskTreeState = createTreeState();
    const frame = (event: AgentEvent, now: number): void => {
      state = reduceTree(state, event, now);
      tree.draw(state.root, now);
      approvals.draw(waitingApprovals(state));
    };
    frame({ type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
    frame(task({ type: 'RunStart', ...base, sessionId: 't1', prompt: 'p' }), 1);
    frame(ask('c1'), 2);
    expect(cards.children.map((card) => card.dataset.callId)).toEqual(['c1']);
    expect(list.find('task')!.find('tool')!.textContent).toBe('⚙ waiting for approval: bash');

    frame(task({ type: 'RunEnd', ...base, text: 'done', abnormal: false, metrics, steps: 1 }), 3);
    expect(cards.children).toEqual([]);
    frame(ask('c2'), 4); // the stream's request for a call of the task that already ended
    frame(ask('c1'), 5);
    expect(cards.children).toEqual([]);
    expect(section.hidden).toBe(true);
    expect(list.find('task')!.find('tool')!.textContent).toBe('');
    expect(list.find('task')!.find('status-text')!.textContent).toBe('done');
  });
});
