import { NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { approvalRouter } from '../../src/engine/approval-router.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { RunRegistry } from '../../src/runs/run-registry.js';

/**
 * A call cancelled just as it asks (its signal already aborted when the router is called: a
 * task cancelled by id as its tool call reaches the gate, or the deadline's own withdraw) must
 * not leave its question waiting in the run: listed, published to the other engines, shown as
 * a card, and answerable, for a call that will never run.
 */
describe('the approval router asked with a signal already aborted', () => {
  it('rejects at once and leaves nothing waiting in the run', async () => {
    const runs = new RunRegistry({ log: new MemoryEventLog(), retentionMs: 60_000, maxRetained: 10 });
    const run = runs.start('run_1', 'ses_1', 'main', NEVER);
    const request: ApprovalRequest = { runId: 'run_1', sessionId: 'ses_1', approvalId: 'approval_1', callId: 'call_0', toolName: 'bash', args: { command: 'ls' }, reason: 'r', agentName: 'main', rootRunId: run.runId };
    const decision = await approvalRouter(runs, undefined)(request, { signal: AbortSignal.abort() });
    expect(decision).toMatchObject({ decision: 'reject' });
    expect(runs.pendingApprovals(run.runId)).toEqual([]);
    run.cancel();
  });
});
