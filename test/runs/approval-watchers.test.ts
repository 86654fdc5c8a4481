/**
 * `runs.watchApprovals`: a protocol that shows only waiting approvals (AG-UI) hears each
 * change of a run's waiting approvals at once, instead of looking them up on a timer, and a
 * run's listeners go when it ends (none is held for the process's life).
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { RunRegistry } from '../../src/runs/run-registry.js';
import { runEnd } from '../support/event-fixtures.js';

const APPROVAL = { approvalId: 'approval_1', callId: 'call_0', toolName: 'bash', agentName: 'main' };

function registryWithRun(): { runs: RunRegistry; events: Subject<AgentEvent>; runId: string } {
  const runs = new RunRegistry({ log: new MemoryEventLog(), retentionMs: 60_000, maxRetained: 10 });
  const events = new Subject<AgentEvent>();
  const run = runs.start('run_1', 'ses_1', 'main', events);
  return { runs, events, runId: run.runId };
}

describe('runs.watchApprovals', () => {
  it('tells a running run\'s listener, at once, as an approval starts and stops waiting', () => {
    const { runs, runId } = registryWithRun();
    const heard: number[] = [];
    runs.watchApprovals(runId, () => heard.push(runs.pendingApprovals(runId).length));
    void runs.approvals.wait(runId, APPROVAL, new AbortController().signal);
    // Synchronously, with the approval already listed: no timer, no later turn.
    expect(heard).toEqual([1]);
    expect(runs.answer(runId, 'approval_1', { decision: 'approve' })).toBe(true);
    expect(heard).toEqual([1, 0]);
  });

  it('stops telling a listener once removed, and a listener that throws stops no other', () => {
    const { runs, runId } = registryWithRun();
    const heard: string[] = [];
    const stop = runs.watchApprovals(runId, () => heard.push('a'));
    runs.watchApprovals(runId, () => {
      throw new Error('a broken listener');
    });
    runs.watchApprovals(runId, () => heard.push('c'));
    stop();
    void runs.approvals.wait(runId, APPROVAL, new AbortController().signal);
    expect(heard).toEqual(['c']);
    expect(runs.pendingApprovals(runId)).toHaveLength(1);
    runs.cancel(runId);
  });

  it('drops a run\'s listeners when it ends, and gives none to a run no longer running', () => {
    const { runs, events, runId } = registryWithRun();
    const heard: number[] = [];
    runs.watchApprovals(runId, () => heard.push(runs.pendingApprovals(runId).length));
    void runs.approvals.wait(runId, APPROVAL, new AbortController().signal);
    expect(runs.approvalWatchers.count(runId)).toBe(1);
    events.next(runEnd(runId));
    // Its end rejected the waiting approval (the listener heard it), then its listeners went.
    expect(heard).toEqual([1, 0]);
    expect(runs.approvalWatchers.count(runId)).toBe(0);
    runs.watchApprovals(runId, () => heard.push(-1));
    expect(runs.approvalWatchers.count(runId)).toBe(0);
  });

  it('drops a cancelled run\'s listeners', () => {
    const { runs, runId } = registryWithRun();
    runs.watchApprovals(runId, () => undefined);
    expect(runs.approvalWatchers.count(runId)).toBe(1);
    runs.cancel(runId);
    expect(runs.approvalWatchers.count(runId)).toBe(0);
  });
});
