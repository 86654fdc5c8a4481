import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a worker shutting down under a task that asks approval', () => {
  const scale = useScaleKits();

  it('withdraws the approval, never runs the call, and names the shutdown as the cause, not Redis', async () => {
    const k = await scale.kit();
    k.fixture.route({
      main: steps(taskReply('explorer', 'run it', 'bash')),
      explorer: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'touch gone.txt' } }] }),
    });
    const worker = await k.worker();
    const engine = await k.engine({ distributeTasks: true }, [testAgent('explorer')]);
    const run = engine.start('go');
    await waitFor(() => engine.runs.pendingApprovals(run.runId).length === 1);
    const [pending] = engine.runs.pendingApprovals(run.runId);
    await worker.close();
    await waitFor(() => engine.runs.pendingApprovals(run.runId).length === 0);
    expect(await engine.runs.answer(run.runId, pending!.approvalId, { decision: 'approve' })).toBe(false);
    const { text } = await run.result;
    // The main agent's final turn quotes the task's result, which the model read.
    expect(text).toContain('ERROR: the explorer task failed: the worker running it shut down]]>');
    expect(text).not.toContain('Redis failed');
    expect(existsSync(join(k.fixture.workspace.dir, 'gone.txt'))).toBe(false);
  }, 60_000);
});
