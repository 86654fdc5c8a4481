import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerApproval, fromRun, startRun, toUiItem, type UiItem } from '../../src/client/index.js';
import { testAgent } from '../support/agent-turns.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await served?.close();
  await fixture?.close();
  served = fixture = undefined;
});

type Pending = Extract<UiItem, { kind: 'approval-pending' }>;

/**
 * The attack of issue 22.5: a multitask of two workers whose models (a local server numbering
 * calls predictably) both call bash with the call id `call_0`, each a different command.
 * Task A asks first; task B's model answers only once A waits, so both wait at once.
 */
async function sameCallIdTwice(): Promise<{ runId: string; items: UiItem[]; pending: () => Pending[] }> {
  const aWaits = createGate();
  fixture = await startDelegationFixture({
    main: steps(multitaskReply([[1, 'worker', 'do A', 'task A'], [2, 'worker', 'do B', 'task B']])),
    worker: async (turn) => {
      const which = turn.prompt === 'do A' ? 'A' : 'B';
      if (turn.step > 1) return { text: `worker ${which}: ${turn.toolResults.at(-1) ?? ''}` };
      if (which === 'B') await aWaits.promise;
      return { toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: `echo ran-${which} >> ran.txt` } }] };
    },
  });
  served = await serveRuns({ model: fixture.model() });
  served.engine.agents.add(testAgent('worker'));
  const { runId } = await startRun(served.url, { prompt: 'do A and B' });
  const items: UiItem[] = [];
  const decided = new Set<string>();
  fromRun(served.url, runId).subscribe({
    next: ({ event }) => {
      const item = toUiItem(event);
      if (!item) return;
      items.push(item);
      if (item.kind === 'approval-pending' && item.taskDescription === 'task A') aWaits.open();
      if (item.kind === 'approval-decided') decided.add(item.approvalId);
    },
    error: () => undefined, // the second test cancels the run
  });
  const pending = (): Pending[] => items.filter((i): i is Pending => i.kind === 'approval-pending' && !decided.has(i.approvalId));
  return { runId, items, pending };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('approvals are answered by approval id, never by the model\'s call id', () => {
  it("two tasks' calls share call_0: approving task B's card runs B's command, not A's; A still waits", async () => {
    const { runId, items, pending } = await sameCallIdTwice();
    await until(() => pending().length === 2, 'both tasks to ask');
    const [a, b] = [pending().find((p) => p.taskDescription === 'task A')!, pending().find((p) => p.taskDescription === 'task B')!];
    expect([a.callId, b.callId]).toEqual(['call_0', 'call_0']);
    expect(a.approvalId).not.toBe(b.approvalId);
    expect(served!.engine.runs.pendingApprovals(runId).map((p) => p.approvalId).sort()).toEqual([a.approvalId, b.approvalId].sort());

    await answerApproval(served!.url, runId, b, 'approve');
    const ranOf = (task: string) => items.find((i) => i.kind === 'tool-end' && i.toolName === 'bash' && i.taskDescription === task);
    await until(() => ranOf('task B') !== undefined, "task B's bash call to end");
    const workspace = served!.engine.workspace;
    expect(await readFile(join(workspace, 'ran.txt'), 'utf8')).toBe('ran-B\n');
    expect(ranOf('task A')).toBeUndefined();
    expect(pending().map((p) => p.approvalId)).toEqual([a.approvalId]);

    // A's card, answered as the page does (its id and its task): A is refused, and never ran.
    await answerApproval(served!.url, runId, a, { decision: 'reject', comment: 'not A' });
    await until(() => items.some((i) => i.kind === 'result'), 'the run to end');
    expect(await readFile(join(workspace, 'ran.txt'), 'utf8')).toBe('ran-B\n');
    expect(ranOf('task A')).toMatchObject({ error: expect.stringContaining('rejected: not A') });
  });

  it("an answer naming one task's approval with another task's id is refused (404) and decides nothing", async () => {
    const { runId, pending } = await sameCallIdTwice();
    await until(() => pending().length === 2, 'both tasks to ask');
    const [a, b] = [pending().find((p) => p.taskDescription === 'task A')!, pending().find((p) => p.taskDescription === 'task B')!];
    await expect(answerApproval(served!.url, runId, { approvalId: b.approvalId, taskId: a.taskId }, 'approve')).rejects.toMatchObject({ status: 404 });
    await expect(answerApproval(served!.url, runId, { approvalId: 'call_0' }, 'approve')).rejects.toMatchObject({
      status: 404,
      serverError: expect.stringContaining('"call_0" is a call id, not an approval id (2 waiting'),
    });
    expect(served!.engine.runs.pendingApprovals(runId)).toHaveLength(2);
    await served!.engine.runs.cancel(runId);
  });
});
