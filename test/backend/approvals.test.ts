import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { createGate } from '../support/deferred.js';
import { turnOf } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

describe.skipIf(!HAS_REDIS)('approvals asked on a worker', () => {
  const scale = useScaleKits();
  let kit: ScaleKit;

  /** A kit whose explorer runs `echo approved-run` through bash (which asks by default), then echoes the result. */
  async function bashKit(): Promise<ScaleKit> {
    const k = (kit = await scale.kit());
    k.fixture.route({
      main: steps(taskReply('explorer', 'run it', 'bash')),
      explorer: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }),
    });
    await k.worker();
    return k;
  }

  it("reach the owning engine's approve handler, and its answer reaches the worker", async () => {
    const k = await bashKit();
    const asked: ApprovalRequest[] = [];
    const engine = await k.engine({ distributeTasks: true, approve: (request) => (asked.push(request), { decision: 'approve' }) }, AGENTS);
    const { text } = await engine.call('go');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ toolName: 'bash', agentName: 'explorer' });
    expect(asked[0]!.taskId).toMatch(/^task_/);
    expect(text).toContain('approved-run');
  });

  it("wait as long as the delegating engine's approvalTimeoutMs, not the worker's own: unanswered, the call is rejected as timed out and withdrawn", async () => {
    const k = (kit = await scale.kit());
    k.fixture.route({
      main: steps(taskReply('explorer', 'run it', 'bash')),
      explorer: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'touch never-ran.txt' } }] }),
    });
    // The worker's own would say "2 s": the engine's 300 ms must be the one that applies.
    await k.worker({ approvalTimeoutMs: 2000 });
    const asked: AbortSignal[] = [];
    const engine = await k.engine({ distributeTasks: true, approvalTimeoutMs: 300, approve: (_request, { signal }) => (asked.push(signal), new Promise(() => undefined)) }, AGENTS);
    const events = await eventsOf(engine.stream('go'));
    const decided = events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'HITLDecided' ? [e.event] : []));
    expect(decided).toEqual([expect.objectContaining({ toolName: 'bash', decision: 'reject', timedOut: true })]);
    expect(decided[0]!.comment).toContain('nobody answered within 300 ms');
    // The question was withdrawn at the engine that asked its handler.
    expect(asked).toHaveLength(1);
    await waitFor(() => asked[0]!.aborted);
    // The model read the refusal; the command never ran.
    const explorerBodies = k.fixture.server.requests.filter((r) => turnOf(r).agent === 'explorer').map((r) => JSON.stringify(r.body.messages));
    expect(explorerBodies.at(-1)).toContain('timed out waiting for approval');
    expect(existsSync(join(k.fixture.workspace.dir, 'never-ran.txt'))).toBe(false);
  });

  it("of a task's own sub-task on the worker wait as long as the delegating engine's approvalTimeoutMs too, not the worker's", async () => {
    const k = (kit = await scale.kit());
    // The sub-task's agent is one the worker finds by itself (in the shared home), as a deployment's would.
    mkdirSync(join(k.fixture.home, '.rxharness', 'agents'), { recursive: true });
    writeFileSync(join(k.fixture.home, '.rxharness', 'agents', 'digger.md'), `---\nname: digger\ndescription: Test agent digger.\n---\n${testAgentPrompt('digger')}\n`);
    k.fixture.route({
      main: steps(taskReply('explorer', 'delegate it', 'delegate')),
      explorer: steps(taskReply('digger', 'run it', 'bash')),
      digger: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'touch never-ran.txt' } }] }),
    });
    await k.worker({ approvalTimeoutMs: 2000, maxDepth: 2 });
    const engine = await k.engine({ distributeTasks: true, maxDepth: 2, approvalTimeoutMs: 300, approve: () => new Promise(() => undefined) }, AGENTS);
    const events = await eventsOf(engine.stream('go'));
    // explorer runs on the worker, digger in-process there under it: its decision comes wrapped twice.
    const decided = events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'TaskWrap' && e.event.event.type === 'HITLDecided' ? [e.event.event] : []));
    expect(decided).toEqual([expect.objectContaining({ toolName: 'bash', decision: 'reject', timedOut: true })]);
    expect(decided[0]!.comment).toContain('nobody answered within 300 ms');
    expect(existsSync(join(k.fixture.workspace.dir, 'never-ran.txt'))).toBe(false);
  });

  it('of a started run can be answered through another engine', async () => {
    const k = await bashKit();
    const owner = await k.engine({ distributeTasks: true }, AGENTS);
    const other = await k.engine({}, AGENTS);
    const run = owner.start('go');
    // The other engine hears of the run over pub/sub, a moment after it started.
    await waitFor(() => other.runs.get(run.runId) !== undefined);
    const pending = await firstValueFrom(
      other.runs.attach(run.runId).pipe(filter(({ event }) => event.type === 'TaskWrap' && event.event.type === 'HITLPending')),
    );
    const approvalId = pending.event.type === 'TaskWrap' && pending.event.event.type === 'HITLPending' ? pending.event.event.approvalId : '';
    await waitForPending(() => other.runs.answer(run.runId, approvalId, { decision: 'approve' }));
    expect((await run.result).text).toContain('approved-run');
  });

  it("of two tasks on workers whose calls share call_0: task B's approval, answered through another engine, runs B's command only", async () => {
    const k = (kit = await scale.kit());
    const aWaits = createGate();
    k.fixture.route({
      main: steps(multitaskReply([[1, 'explorer', 'do A', 'task A'], [2, 'explorer', 'do B', 'task B']])),
      explorer: async (turn) => {
        const which = turn.prompt === 'do A' ? 'A' : 'B';
        if (turn.step > 1) return { text: `explorer ${which}: ${turn.toolResults.at(-1) ?? ''}` };
        if (which === 'B') await aWaits.promise; // A asks first: an answer by call id would reach A
        return { toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: `echo ran-${which} >> ran.txt` } }] };
      },
    });
    await k.worker();
    const owner = await k.engine({ distributeTasks: true }, AGENTS);
    const other = await k.engine({}, AGENTS);
    const run = owner.start('go');
    const asked = new Map<string, string>(); // task description -> approval id
    const following = run.events$.subscribe({
      next: (e) => {
        if (e.event.type !== 'TaskWrap' || e.event.event.type !== 'HITLPending') return;
        asked.set(e.event.taskDescription, e.event.event.approvalId);
        if (e.event.taskDescription === 'task A') aWaits.open();
      },
      error: () => undefined, // the kit's close ends the log's readers
    });
    await waitFor(() => asked.size === 2 && other.runs.pendingApprovals(run.runId).length === 2);
    expect(other.runs.pendingApprovals(run.runId).map((p) => p.callId)).toEqual(['call_0', 'call_0']);
    expect(await other.runs.answer(run.runId, asked.get('task B')!, { decision: 'approve' })).toBe(true);
    const ran = join(k.fixture.workspace.dir, 'ran.txt');
    await waitFor(() => existsSync(ran));
    await waitFor(() => owner.runs.pendingApprovals(run.runId).length === 1);
    expect(owner.runs.pendingApprovals(run.runId).map((p) => p.approvalId)).toEqual([asked.get('task A')]);
    expect(await other.runs.answer(run.runId, asked.get('task A')!, { decision: 'reject', comment: 'not A' })).toBe(true);
    const { text } = await run.result;
    expect(readFileSync(ran, 'utf8')).toBe('ran-B\n');
    expect(text).toContain('rejected: not A');
    following.unsubscribe();
  });

  it('fail closed when nobody can answer', async () => {
    const k = await bashKit();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const { text } = await engine.call('go');
    expect(text).toContain('fail-closed');
    expect(text).not.toContain('approved-run\n');
  });
});

/**
 * Retries `answer` until it is taken: the owner publishes the pending call a moment after the
 * event. Fails (rather than going on unanswered) when it is not taken within `waitFor`'s
 * deadline, which is for a busy machine, not a target.
 */
async function waitForPending(answer: () => boolean | Promise<boolean>): Promise<void> {
  await waitFor(answer);
}
