/**
 * Every count the page writes has thousands separators (`count`): a task's 12,345 tool calls
 * read as 12345 in its row, and an approval's 12,345 lines as 12345 on its card, while the
 * tokens beside them read 12,345. Drawn into an in-memory document (`fake-dom.ts`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree } from '../../../src/adapters/task-tree/index.js';
import { approvalCard } from '../../../src/web/page/approval-card.js';
import { count } from '../../../src/web/page/count.js';
import { TreeView } from '../../../src/web/page/tree-view.js';
import { fakeDocument, FakeElement } from './fake-dom.js';

beforeAll(() => vi.stubGlobal('document', fakeDocument));
afterAll(() => vi.unstubAllGlobals());

describe('the counts on the page', () => {
  it('writes 12345 as 12,345', () => {
    expect(count(12_345)).toBe('12,345');
    expect(count(999)).toBe('999');
    expect(count(1_234_567)).toBe('1,234,567');
  });

  it("a row's tokens, tool calls and compactions", () => {
    const state = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
    const list = new FakeElement('ul');
    // The counts a busy run reaches, set on its node (12,345 calls' events would only slow the test).
    new TreeView(list).draw({ ...state.root!, tokens: 12_345, toolCallCount: 12_345, compactions: 1_234 }, 1_000);
    expect(list.find('meta')!.textContent).toBe('1.0s · 12,345 tok · 12,345 tool calls · compacted 1,234×');
  });

  it("an approval card's folded argument: its lines and characters", () => {
    const content = 'x\n'.repeat(12_345);
    const approval = { approvalId: 'a1', taskId: undefined, nodeKey: 'main', who: 'main', callId: 'c1', toolName: 'write', args: { path: 'a.txt', content }, reason: 'r' };
    const card = approvalCard(approval, () => 0, () => undefined);
    expect((card.li as FakeElement).find('argument')!.find('name')!.textContent).toBe('content (12,346 lines, 24,690 characters):');
  });
});
