/**
 * A task whose spec cannot be sent to a worker (`toWire` refuses it) fails at once with a
 * `RemoteTaskError` that says so and why, not as a failure of Redis; nothing is written for
 * it (no log, no job) and no cancel is sent for a job that never was. Real Redis, a real launcher.
 */
import { describe, expect, it } from 'vitest';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { RemoteTaskError } from '../../src/backend/remote-task-error.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentSpec } from '../../src/delegation/delegation-types.js';
import type { ChildRun } from '../../src/delegation/run-child.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { MemoryTokenBudget } from '../../src/model/memory-token-budget.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { outcomeOf } from '../support/collect.js';
import { createToolContext } from '../support/tool-context.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const mainModel = new ScriptedModel([]);

/** A child of task `taskId` whose spec differs from a plain one by `spec`. */
function childOf(taskId: string, spec: Partial<AgentSpec>): ChildRun {
  const model = spec.model ?? mainModel;
  const whole: AgentSpec = { name: 'alpha', depth: 1, model, instructions: '', toolNames: [], policy: new PermissionPolicy({ rules: [] }), maxSteps: 3, ...spec };
  const parent = createToolContext({ rootSessionId: 's1' });
  return { agent: new ReActAgent({ name: 'alpha', model }), spec: whole, prompt: 'job', taskId, index: 1, description: 'job', multitask: false, parent, tracker: new TaskTracker() };
}

describe.skipIf(!HAS_REDIS)('a task that cannot be sent to a worker', () => {
  const f = redisBackendPerFile('unsendable', 60_000);

  /** Runs `child` on a launcher of the file's backend; its error, and the keys written for its task. */
  async function launched(child: ChildRun) {
    const { parts } = f.backend;
    const launcher = f.backend.childLauncher({ approve: undefined, model: mainModel, models: {} });
    const { error, completed } = await outcomeOf(launcher.run$(child, true));
    // The launcher's commands go on this connection in order: a cancel sent as it let go is in by now.
    await parts.redis.ping();
    const written = [...(await parts.redis.keys(parts.keys.log(`${child.taskId}*`))), ...(await parts.redis.keys(parts.keys.cancelled(`${child.taskId}*`)))];
    return { error, completed, written };
  }

  it('a model no worker can name: says the task cannot be sent, and why', async () => {
    const { error, completed, written } = await launched(childOf('task_unnamed', { model: new ScriptedModel([]) }));
    expect(completed).toBe(false);
    expect(error).toBeInstanceOf(RemoteTaskError);
    expect((error as Error).message).toBe('the task cannot be sent to a worker: the model of agent "alpha" is neither the engine\'s model nor one of its `models`, so no worker can find it');
    expect(written).toEqual([]);
  });

  it('a failure while reading the spec is no failure of Redis', async () => {
    const parentBudget = Object.assign(new MemoryTokenBudget(1000), {
      remaining: (): number => {
        throw new Error('the budget cannot be read');
      },
    });
    const task = { taskId: 'task_budget', rootSessionId: 's1', rootRunId: 'run_root', background: false, parentBudget };
    const { error, written } = await launched(childOf('task_budget', { task }));
    expect(error).not.toBeInstanceOf(RedisBackendError);
    expect(error).toBeInstanceOf(RemoteTaskError);
    expect((error as Error).message).toBe('the task cannot be sent to a worker: the budget cannot be read');
    expect(written).toEqual([]);
  });
});
