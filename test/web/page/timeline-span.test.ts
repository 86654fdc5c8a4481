import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../src/adapters/task-tree/index.js';
import { chartSpan } from '../../../src/web/page/timeline-view.js';

// The timeline spans from the first task queued or started to the last end. The times were
// spread into Math.min/Math.max: past about 100,000 tasks a redraw threw a RangeError.

function node(key: string, times: Pick<TreeNode, 'startedAt' | 'status'> & Partial<Pick<TreeNode, 'queuedAt' | 'endedAt'>>): TreeNode {
  return { key, runId: 'r', agentName: 'a', description: key, multitask: false, tail: '', tools: [], toolCallCount: 0, waitingApprovalCount: 0, children: [], ...times };
}

describe('the span of the timeline', () => {
  it('runs from the first queued or started task to the last end, now for one still going', () => {
    const root = node('root', { startedAt: 100, status: 'running' });
    const rows = [
      { node: root },
      { node: node('a', { queuedAt: 90, startedAt: 120, endedAt: 150, status: 'done' }) },
      { node: node('b', { startedAt: 130, status: 'running' }) },
      { node: node('c', { startedAt: 140, status: 'failed' }) },
    ];
    expect(chartSpan(rows, root, 500)).toEqual({ from: 90, to: 500 });
    const ended = { ...root, endedAt: 160, status: 'done' as const };
    expect(chartSpan([{ node: ended }, rows[1]!], ended, 500)).toEqual({ from: 90, to: 160 });
    const instant = { ...root, endedAt: 100, status: 'done' as const };
    expect(chartSpan([{ node: instant }], instant, 100)).toEqual({ from: 100, to: 101 });
  });

  it('takes 200,000 tasks', () => {
    const root = node('root', { startedAt: 1_000, endedAt: 2_000, status: 'done' });
    const rows = [{ node: root }, ...Array.from({ length: 200_000 }, (_, i) => ({ node: node(`t${i}`, { startedAt: 1_000 + i, endedAt: 1_001 + i, status: 'done' }) }))];
    rows.push({ node: node('early', { queuedAt: 5, startedAt: 7, endedAt: 8, status: 'done' }) });
    expect(chartSpan(rows, root, 999_999)).toEqual({ from: 5, to: 201_000 });
  });
});
