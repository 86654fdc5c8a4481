/**
 * Events from a hostile server, read with JSON.parse and handed to the tree reducer and the
 * terminal lines: `__proto__`, `constructor` and `hasOwnProperty` as ids and as own keys of
 * the payload stay data (no node, item or global prototype changes), and escape sequences in
 * every name and text the terminal shows (queued tasks, warnings, compactions, cancels and a
 * settled tree too) never reach it raw.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, plainLine, reduceTree, renderTree, settleTree, toUiItem, treeRows, type TaskTreeState } from '../../src/adapters/index.js';
import type { AgentEvent } from '../../src/events/index.js';

const E = '\u001b]0;owned\u0007\u001b[2J\u009b1A\u001bP\u0008';
/** C0 and C1 controls, escape included (line breaks are taken out first: they separate tree lines). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const metrics = { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 };
const wrap = (event: AgentEvent): AgentEvent =>
  ({ type: 'TaskWrap', runId: 'c', agentName: E, parentRunId: 'r', taskId: E, taskIndex: 1, taskAgentName: E, taskDescription: E, multitask: true, event }) as AgentEvent;

const EVENTS: AgentEvent[] = [
  { type: 'RunStart', runId: 'r', agentName: E, sessionId: E, prompt: E },
  { type: 'TaskQueued', runId: 'r', agentName: E, parentRunId: 'r', taskId: 'q', taskIndex: 1, taskAgentName: E, taskDescription: E },
  wrap({ type: 'RunStart', runId: 'c', agentName: E, sessionId: E, prompt: E }),
  wrap({ type: 'Warning', runId: 'c', agentName: E, code: E, message: E }),
  wrap({ type: 'ToolCallStart', runId: 'c', agentName: E, step: 1, callId: E, toolName: E, args: { command: E } }),
  wrap({ type: 'HITLPending', runId: 'c', agentName: E, approvalId: E, callId: E, toolName: E, args: { command: E }, reason: E }),
  wrap({ type: 'Compaction', runId: 'c', agentName: E, sessionId: E, reason: E, contextWindow: 1, tokensBefore: 1, tokensAfter: 1, prunedToolResults: 0, summarisedMessages: 0, summaryError: E, archived: false } as unknown as AgentEvent), // a reason no engine sends: a hostile server's
  wrap({ type: 'ReasonDelta', runId: 'c', agentName: E, step: 1, kind: 'text', text: `${E}tail${E}` }),
  wrap({ type: 'RunCancelled', runId: 'c', agentName: E, reason: E }),
  { type: 'ToolCallEnd', runId: 'r', agentName: E, step: 1, callId: E, toolName: E, text: E, error: E, durationMs: 1 },
];

describe('escape sequences in every text the terminal shows', () => {
  it('no tree drawn after any event, nor any plain line, nor a settled tree, holds a control', () => {
    let state: TaskTreeState = createTreeState();
    EVENTS.forEach((event, i) => {
      state = reduceTree(state, event, i);
      expect(renderTree(state, { now: 100, width: 2_000 }).replaceAll('\n', '')).not.toMatch(CONTROL);
      expect(plainLine(event) ?? '').not.toMatch(CONTROL);
      expect(plainLine(wrap(event)) ?? '').not.toMatch(CONTROL);
    });
    expect(treeRows(state).length).toBeGreaterThan(2); // the events were taken, not skipped
    const settled = settleTree(state, 200, E);
    expect(renderTree(settled, { now: 300, width: 2_000, color: true }).replaceAll('\n', '').replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(CONTROL);
    const ended = reduceTree(state, { type: 'RunEnd', runId: 'r', agentName: E, text: E, abnormal: true, error: E, metrics, steps: 1 }, 400);
    expect(renderTree(ended, { now: 500, width: 2_000 }).replaceAll('\n', '')).not.toMatch(CONTROL);
  });
});

describe('`__proto__` and friends in parsed events', () => {
  it('as ids and as own keys, they stay data: nodes and items keep the plain prototype, nothing global changes', () => {
    const start = JSON.parse(`{"type":"RunStart","runId":"__proto__","agentName":"constructor","sessionId":"s","prompt":"p","__proto__":{"status":"done","polluted":true}}`) as AgentEvent;
    const tool = JSON.parse(
      `{"type":"TaskWrap","runId":"constructor","agentName":"x","parentRunId":"__proto__","taskId":"__proto__","taskIndex":1,"taskAgentName":"x","taskDescription":"d","multitask":false,"__proto__":{"polluted":2},` +
        `"event":{"type":"ToolCallStart","runId":"constructor","agentName":"x","step":1,"callId":"__proto__","toolName":"hasOwnProperty","args":{"__proto__":{"polluted":3}}}}`,
    ) as AgentEvent;
    let state = reduceTree(createTreeState(), start, 0);
    state = reduceTree(state, tool, 1);
    const rows = treeRows(state);
    expect(rows.map((row) => [row.node.key, row.node.status, row.node.tools.length])).toEqual([['__proto__', 'running', 0], ['__proto__/__proto__', 'running', 1]]);
    for (const { node } of rows) {
      expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
      expect((node as unknown as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(Object.getPrototypeOf(toUiItem(start))).toBe(Object.prototype);
    expect((toUiItem(start) as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(renderTree(state, { now: 5 }).split('\n')[1]).toContain('▸ hasOwnProperty');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
