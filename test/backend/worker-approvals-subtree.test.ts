import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { createGate } from '../support/deferred.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

/** The kit's stall interval (its default): the worker checks that its asks' channel has a listener at this pace. */
const STALL_MS = 1000;

/** The innermost event of a (possibly nested) `TaskWrap`. */
function innermost(event: AgentEvent): AgentEvent {
  return event.type === 'TaskWrap' ? innermost(event.event) : event;
}

/**
 * One worker (room for both jobs) runs the main agent's two tasks: B asks approval for a bash
 * call; A, once B asked, delegates `digger` in-process on the worker, and digger asks too. Both
 * questions wait in the owner's run.
 */
async function siblingsAsking(k: ScaleKit): Promise<{ owner: HarnessEngine; runId: string; result: Promise<{ text: string }>; decided: string[]; b: { approvalId: string; taskId: string }; d: { approvalId: string } }> {
  mkdirSync(join(k.fixture.home, '.rxharness', 'agents'), { recursive: true });
  writeFileSync(join(k.fixture.home, '.rxharness', 'agents', 'digger.md'), `---\nname: digger\ndescription: Test agent digger.\n---\n${testAgentPrompt('digger')}\n`);
  const bAsked = createGate();
  k.fixture.route({
    main: steps(multitaskReply([[1, 'explorer', 'do B', 'task B'], [2, 'explorer', 'do A', 'task A']])),
    explorer: async (turn) => {
      const which = turn.prompt === 'do A' ? 'A' : 'B';
      if (turn.step > 1) return { text: `explorer ${which}: ${turn.toolResults.at(-1) ?? ''}` };
      if (which === 'B') return { toolCalls: [{ name: 'bash', arguments: { command: 'echo ran-B >> ran.txt' } }] };
      await bAsked.promise; // B's job runs (and asks) before A's delegates
      return taskReply('digger', 'run it', 'dig');
    },
    digger: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo ran-D >> ran.txt' } }] }),
  });
  await k.worker({ maxDepth: 2, concurrency: 4 });
  const owner = await k.engine({ distributeTasks: true, maxDepth: 2 }, [testAgent('explorer')]);
  const run = owner.start('go');
  const decided: string[] = [];
  run.events$.subscribe({
    next: ({ event }) => {
      const inner = innermost(event);
      if (inner.type === 'HITLPending' && inner.agentName === 'explorer') bAsked.open();
      if (inner.type === 'HITLDecided') decided.push(`${inner.agentName}: ${inner.decision}${inner.comment ? ` (${inner.comment})` : ''}`);
    },
    error: () => undefined,
  });
  const pending = () => owner.runs.pendingApprovals(run.runId);
  await waitFor(() => pending().length === 2);
  const b = pending().find((p) => p.agentName === 'explorer')!;
  const d = pending().find((p) => p.agentName === 'digger')!;
  return { owner, runId: run.runId, result: run.result, decided, b: { approvalId: b.approvalId, taskId: b.taskId! }, d };
}

describe.skipIf(!HAS_REDIS)("a grandchild's approval on a worker goes to its own job's engine channel", () => {
  const scale = useScaleKits();

  it("stays pending while a sibling job on the same worker ends, and its answer runs the call", async () => {
    const k = await scale.kit(STALL_MS);
    const { owner, runId, result, decided, b, d } = await siblingsAsking(k);
    expect(await owner.runs.answer(runId, b.approvalId, { decision: 'approve' })).toBe(true);
    await waitFor(() => owner.tasks.get(b.taskId)?.state === 'done');
    // Past B's launcher's teardown and two of the worker's checks for a listener on the asks' channel.
    await new Promise((r) => setTimeout(r, 2.5 * STALL_MS));
    expect(decided).toEqual(['explorer: approve']);
    expect(owner.runs.pendingApprovals(runId).map((p) => p.approvalId)).toEqual([d.approvalId]);
    expect(await owner.runs.answer(runId, d.approvalId, { decision: 'approve' })).toBe(true);
    const { text } = await result;
    expect(text).not.toContain('withdrawn');
    expect(readFileSync(join(k.fixture.workspace.dir, 'ran.txt'), 'utf8')).toBe('ran-B\nran-D\n');
  }, 60_000);

  it('stays pending when only the sibling job is cancelled', async () => {
    const k = await scale.kit(STALL_MS);
    const { owner, runId, result, decided, b, d } = await siblingsAsking(k);
    expect(owner.cancelTask(b.taskId)).toBe(true);
    await waitFor(() => owner.tasks.get(b.taskId)?.state === 'cancelled');
    await new Promise((r) => setTimeout(r, 2.5 * STALL_MS));
    // B's own question went with B; digger's, in A's subtree, still waits for its human.
    expect(decided.filter((s) => s.startsWith('digger'))).toEqual([]);
    expect(owner.runs.pendingApprovals(runId).map((p) => p.approvalId)).toEqual([d.approvalId]);
    expect(await owner.runs.answer(runId, d.approvalId, { decision: 'approve' })).toBe(true);
    await result;
    const ran = join(k.fixture.workspace.dir, 'ran.txt');
    expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('ran-D\n');
  }, 60_000);
});
