import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

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
    const callId = pending.event.type === 'TaskWrap' && pending.event.event.type === 'HITLPending' ? pending.event.event.callId : '';
    await waitForPending(() => other.runs.answer(run.runId, callId, { decision: 'approve' }));
    expect((await run.result).text).toContain('approved-run');
  });

  it('fail closed when nobody can answer', async () => {
    const k = await bashKit();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const { text } = await engine.call('go');
    expect(text).toContain('fail-closed');
    expect(text).not.toContain('approved-run\n');
  });
});

/** Retries `answer` until it is taken: the owner publishes the pending call a moment after the event. */
async function waitForPending(answer: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !answer(); i++) await new Promise((r) => setTimeout(r, 10));
}
