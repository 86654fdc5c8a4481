import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import type { PermissionRuleInput } from '../../src/permission/permission-rule.js';
import { TASK_QUEUE } from '../../src/backend/redis-keys.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];
const DENY_BASH: readonly PermissionRuleInput[] = [{ tool: 'bash', action: 'deny' }];
/** What the worker's refusal says, as its child's model reads it. */
const WORKER_REFUSAL = 'a rule of the worker running the task';

/** Routes the explorer to `touch` a marker through bash, then to end; returns the marker's path. */
function touchMarker(kit: ScaleKit, withMain: boolean): string {
  const marker = join(kit.fixture.workspace.dir, 'pwned');
  kit.fixture.route({
    ...(withMain ? { main: steps(taskReply('explorer', 'touch it', 'bash')) } : {}),
    explorer: (t) => (t.step === 1 ? { toolCalls: [{ name: 'bash', arguments: { command: `touch ${marker}` } }] } : { text: 'done' }),
  });
  return marker;
}

/** What the explorer's model read after its bash call: the tool's answer. */
function afterBash(kit: ScaleKit): string {
  return JSON.stringify(kit.fixture.requestsOf('explorer')[1]?.body.messages ?? []);
}

describe.skipIf(!HAS_REDIS)("a worker's own permissionRules bound every job it runs", () => {
  const scale = useScaleKits();

  it('a hand-written job whose policy allows bash is refused bash on a worker denying it', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const marker = touchMarker(kit, false);
    await kit.worker({ permissionRules: DENY_BASH });
    const queue = new Queue(TASK_QUEUE, { connection: { host: '127.0.0.1', port: scale.redis.port }, prefix: `${kit.prefix}:bull` });
    try {
      const logId = 'forged_log_1';
      const forged: TaskJob = {
        logId,
        spec: {
          name: 'explorer',
          depth: 1,
          model: '',
          instructions: testAgentPrompt('explorer'),
          toolNames: ['bash'],
          // Allows bash, with no defaults asking about it: the job's policy alone would run it.
          policy: [{ rules: [{ tool: 'bash', action: 'allow' }], agentRules: [], defaults: [], narrowOnly: false }],
          maxSteps: 3,
          task: { taskId: 'task_forged', rootSessionId: 'sess_forged', rootRunId: 'run_forged', background: true },
        },
        prompt: 'go',
        description: 'forged',
        parentRunId: 'run_forged',
        streaming: false,
      };
      await queue.add('task', forged, { jobId: logId, removeOnComplete: true, removeOnFail: true });
      await waitFor(() => kit.fixture.requestsOf('explorer').length >= 2, 20_000);
    } finally {
      await queue.close();
    }
    expect(existsSync(marker)).toBe(false);
    expect(afterBash(kit)).toContain('Permission denied');
    expect(afterBash(kit)).toContain(WORKER_REFUSAL);
  });

  it("an engine's task that may run bash there is refused bash on a worker denying it", { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const marker = touchMarker(kit, true);
    await kit.worker({ permissionRules: DENY_BASH });
    const engine = await kit.engine({ distributeTasks: true, permissionRules: [{ tool: 'bash', action: 'allow' }] }, AGENTS);
    const { text } = await engine.call('go');
    expect(text).toContain('done');
    expect(existsSync(marker)).toBe(false);
    expect(afterBash(kit)).toContain(WORKER_REFUSAL);
  });

  it("the same task runs bash on a worker without rules, as the engine's rules allow it (nothing added)", { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const marker = touchMarker(kit, true);
    await kit.worker();
    const engine = await kit.engine({ distributeTasks: true, permissionRules: [{ tool: 'bash', action: 'allow' }] }, AGENTS);
    await engine.call('go');
    expect(existsSync(marker)).toBe(true);
    expect(afterBash(kit)).not.toContain('Permission denied');
  });

  it("a worker's ask still asks, at the delegating engine, when the engine's rules allow the call", { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const marker = touchMarker(kit, true);
    await kit.worker({ permissionRules: [{ tool: 'bash', action: 'ask' }] });
    const asked: ApprovalRequest[] = [];
    const approve = (request: ApprovalRequest) => (asked.push(request), { decision: 'reject' as const });
    const engine = await kit.engine({ distributeTasks: true, permissionRules: [{ tool: 'bash', action: 'allow' }], approve }, AGENTS);
    await engine.call('go');
    expect(asked).toEqual([expect.objectContaining({ toolName: 'bash', agentName: 'explorer' })]);
    expect(asked[0]!.reason).toContain(WORKER_REFUSAL);
    expect(existsSync(marker)).toBe(false);
  });
});
