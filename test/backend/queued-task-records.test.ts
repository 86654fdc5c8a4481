/**
 * A `multitask` child waiting for a slot of its pool (state `queued`), seen from another
 * engine on the same Redis: its record is published, so that engine lists it, `whenSettled`
 * there waits for its end, and `DELETE /api/runs/:id/tasks/:taskId` there cancels it (it never
 * starts; its result says it was cancelled while it waited). Before, the record was refused
 * (`queued` was no state a record could have), so the other engine did not know the task and
 * answered 404. A planted or malformed `queued` record is refused like any other.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runsHandler } from '../../src/http/runs-handler.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { createGate } from '../support/deferred.js';
import { listen } from '../http/http-kit.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/** Nothing here waits for a heartbeat to lapse. */
const STALL_MS = 60_000;
const AGENTS = [testAgent('explorer')];

/** Serves `engine`'s runs API; returns its URL and the stop. */
async function serve(engine: HarnessEngine): Promise<{ url: string; server: Server }> {
  const server = createServer(runsHandler(engine));
  return { url: await listen(server), server };
}

describe.skipIf(!HAS_REDIS)('a queued multitask child seen from another engine', () => {
  const scale = useScaleKits();

  it('is listed there, and its DELETE there cancels it before it starts', async () => {
    const k = await scale.kit(STALL_MS);
    const release = createGate();
    k.fixture.route({
      main: steps(multitaskReply([[1, 'explorer', 'first job', 'First'], [2, 'explorer', 'second job', 'Second']])),
      // The first child holds the only slot until the test lets it finish.
      explorer: async () => {
        await release.promise;
        return { text: 'first finished' };
      },
    });
    const owner = await k.engine({ multitaskMaxTasks: 1 }, AGENTS);
    const other = await k.engine({}, AGENTS);
    const run = owner.start('split it in two');
    const result = run.result.catch((e: unknown) => e);
    await waitFor(() => owner.tasks.list(run.sessionId).some((t) => t.state === 'queued'));
    const queued = owner.tasks.list(run.sessionId).find((t) => t.state === 'queued')!;

    // The other engine sees it waiting, as its owner does.
    const listedThere = (): string[] => other.tasks.list(run.sessionId).map((t) => `${t.description}:${t.state}`).sort();
    await waitFor(() => listedThere().length === 2);
    expect(listedThere()).toEqual(['First:running', 'Second:queued']);
    expect(other.tasks.get(queued.taskId)).toEqual(queued);
    let settledThere: string | undefined;
    const settling = other.tasks.whenSettled(queued.taskId).then((t) => (settledThere = t?.state));

    const { url, server } = await serve(other);
    try {
      const response = await fetch(`${url}/runs/${run.runId}/tasks/${queued.taskId}`, { method: 'DELETE' });
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 202, body: { runId: run.runId, taskId: queued.taskId, state: 'cancelled' } });
    } finally {
      server.closeAllConnections();
      server.close();
    }
    await waitFor(() => owner.tasks.get(queued.taskId)?.state === 'cancelled');
    expect(owner.tasks.get(queued.taskId)?.result).toContain('was cancelled while it waited for a slot; it never started');
    await settling;
    expect(settledThere).toBe('cancelled');
    await waitFor(() => other.tasks.get(queued.taskId)?.state === 'cancelled');

    release.open();
    const ended = (await result) as { text: string };
    expect(ended.text).toContain('it never started');
    expect(owner.tasks.get(queued.taskId)?.state).toBe('cancelled'); // never moved on to running
    expect(k.fixture.requestsOf('explorer')).toHaveLength(1); // the second child never asked the model
  });

  it('refuses a planted or malformed queued record, loaded or announced, and takes a well-formed one', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const base = { agentName: 'explorer', description: 'd', sessionId: 'ses_q', parentRunId: 'run_q', background: false, state: 'queued', startedAt: Date.now(), owner: 'instance_q' };
    const bad: Record<string, object> = {
      task_bg: { ...base, background: true }, // a queued task is a multitask child: never background
      task_ended: { ...base, endedAt: Date.now() }, // a queued task has not ended
      task_result: { ...base, result: 'ERROR: no' }, // nor a result
      task_metrics: { ...base, metrics: {} },
      task_ownerless: { ...base, owner: undefined }, // every queued record names the engine holding it
      task_badowner: { ...base, owner: 7 },
    };
    for (const [taskId, record] of Object.entries(bad)) await redis.set(keys.task(taskId), JSON.stringify({ ...record, taskId }), 'PX', 60_000);
    await redis.set(keys.task('task_good'), JSON.stringify({ ...base, taskId: 'task_good' }), 'PX', 60_000);
    const engine = await k.engine({}, AGENTS);
    expect(engine.tasks.list().map((t) => [t.taskId, t.state])).toEqual([['task_good', 'queued']]);
    expect(engine.tasks.get('task_good')).not.toHaveProperty('owner');

    // Announced on the channel: the same rule.
    for (const [taskId, record] of Object.entries(bad)) {
      const { owner, ...info } = record as { owner?: unknown };
      await redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { ...info, taskId: `${taskId}_msg` }, owner }));
    }
    const { owner, ...goodInfo } = base;
    await redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { ...goodInfo, taskId: 'task_good_msg' }, owner }));
    await waitFor(() => engine.tasks.get('task_good_msg')?.state === 'queued');
    expect(engine.tasks.list().map((t) => t.taskId).sort()).toEqual(['task_good', 'task_good_msg']);
  });

  it('never moves a task back to queued on a crossed message; a dead engine\'s queued task is recorded failed', async () => {
    // A short stall interval: the sweep looks for dead owners every few hundred ms.
    const k = await scale.kit(1000);
    const { redis, keys } = (await k.backend()).parts;
    const engine = await k.engine({}, AGENTS);
    const t = Date.now();
    const record = { agentName: 'explorer', description: 'd', sessionId: 'ses_x', parentRunId: 'run_x', background: false, startedAt: t };
    const put = (taskId: string, state: string, owner: string, extra: object = {}): Promise<unknown> =>
      redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { ...record, taskId, state, ...extra }, owner }));
    // Its engine is alive (beats): only the order of its messages is in question.
    await redis.set(keys.instance('instance_live'), '1', 'PX', 60_000);
    await put('task_cross', 'running', 'instance_live');
    await put('task_cross', 'queued', 'instance_live'); // crossed: older than the start
    await put('task_done', 'cancelled', 'instance_live', { endedAt: t + 5, result: 'ERROR: cancelled' });
    await put('task_done', 'queued', 'instance_live');
    await put('task_dead', 'queued', 'instance_gone'); // no heartbeat: its engine is gone
    await waitFor(() => engine.tasks.get('task_dead')?.state === 'failed');
    expect(engine.tasks.get('task_dead')?.result).toContain('the app instance running task task_dead stopped');
    expect(engine.tasks.get('task_cross')?.state).toBe('running');
    expect(engine.tasks.get('task_done')?.state).toBe('cancelled');
  });
});
