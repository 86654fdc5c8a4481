import { describe, expect, it } from 'vitest';
import { toUiItem } from '../../../src/adapters/ui-dto.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { createTreeState, reduceTree } from '../../../src/adapters/task-tree/index.js';

const compaction: CompactionEvent = {
  type: 'Compaction', runId: 'child', agentName: 'reader', sessionId: 'task_1', reason: 'context-limit', contextWindow: 8192,
  tokensBefore: 7000, tokensAfter: 3000, prunedToolResults: 4, summarisedMessages: 0, archived: true,
};

describe('the page', () => {
  it('counts the compactions of the run and of each task on its row', () => {
    const wrap = (event: AgentEvent): AgentEvent => ({
      type: 'TaskWrap', runId: 'child', agentName: 'reader', parentRunId: 'main', taskId: 'task_1', taskIndex: 1,
      taskAgentName: 'reader', taskDescription: 'read pages', multitask: false, event,
    });
    const events: AgentEvent[] = [
      { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'go' },
      { ...compaction, runId: 'main', agentName: 'main', sessionId: 's' },
      wrap({ type: 'RunStart', runId: 'child', agentName: 'reader', sessionId: 'task_1', prompt: 'read' }),
      wrap(compaction),
      wrap(compaction),
    ];
    // The page folds what it receives with the shared reducer; UI items as a client of toUiItem would.
    const run = events.reduce((state, event) => reduceTree(state, toUiItem(event)!, 0), createTreeState());
    expect(run.root!.compactions).toBe(1);
    expect(run.root!.children[0]!.compactions).toBe(2);
  });
});
