/**
 * Deleting a conversation through one engine reaches its background tasks wherever they run
 * and whatever Redis keeps of them (docs/scaling.md, "Deleting a conversation"): a task
 * another engine runs is cancelled, and the delete returns once it is recorded so; the tasks'
 * shared records (every engine's copy too) and the events of their logs on workers go with
 * the conversation.
 */
import { describe, expect, it } from 'vitest';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];
/** Long: the delete's wait for another engine's task never ends by its bound here, only by the task settling. */
const STALL_MS = 60_000;

/** A main agent that starts one background task of the explorer, then says so. */
const startsBackground = (turn: Turn) =>
  turn.step === 1
    ? { toolCalls: [{ name: 'task', arguments: { agent_name: 'explorer', prompt: 'slow', description: 'bg', background: true } }] }
    : { text: 'started it' };

describe.skipIf(!HAS_REDIS)("deleting a conversation and its tasks on every engine", () => {
  const scale = useScaleKits();

  // The delete used to cancel only the deleting engine's own tasks: this one ran on.
  it("cancels the conversation's background task another engine runs, and returns once it is recorded cancelled", async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground, explorer: () => ({ hang: true }) });
    await k.worker();
    const runner = await k.engine({}, AGENTS);
    const deleter = await k.engine({}, AGENTS);
    await runner.call('go', { sessionId: 'ses_elsewhere' });
    const { taskId } = runner.tasks.list('ses_elsewhere')[0]!;
    const { server } = k.fixture;
    await waitFor(() => server.requests.some((r) => turnOf(r).agent === 'explorer'));
    await waitFor(() => deleter.tasks.get(taskId)?.state === 'running');

    await deleter.sessions.delete?.('ses_elsewhere');
    expect(runner.tasks.get(taskId)?.state).toBe('cancelled');
    const explorer = server.requests.findIndex((r) => turnOf(r).agent === 'explorer');
    expect((await server.waitForClosed(explorer, 10_000)).aborted).toBe(true);
  });

  it("waits for a task whose engine is gone the lapse (two stall intervals) at most, then deletes it", async () => {
    const k = await scale.kit(1000);
    const probe = await k.backend();
    const { redis, keys } = probe.parts;
    const orphan = { taskId: 'task_orphan', agentName: 'explorer', description: 'bg', sessionId: 'ses_orphan', parentRunId: 'run_x', background: true, state: 'running', startedAt: Date.now() };
    await probe.sessions.saveTaskInfo({ taskId: orphan.taskId, agentName: 'explorer', description: 'bg', ownerSessionId: orphan.sessionId });
    await redis.set(keys.task(orphan.taskId), JSON.stringify({ ...orphan, owner: 'instance_gone' }), 'PX', 60_000);
    const engine = await k.engine({}, AGENTS);
    expect(engine.tasks.get(orphan.taskId)?.state).toBe('running');

    const started = Date.now();
    await engine.sessions.delete?.('ses_orphan');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1900); // the lapse: a shorter wait gave up on engines killed just before
    expect(waited).toBeLessThan(10_000);
    expect(await redis.exists(keys.task(orphan.taskId))).toBe(0);
  });

  // They used to stay until `retentionMs`: the record on every engine, the events in Redis.
  it("deletes its tasks' shared records, every engine's copy of them, and the events of their logs on workers", async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground, explorer: () => ({ text: 'the secret answer' }) });
    await k.worker();
    const owner = await k.engine({ distributeTasks: true }, AGENTS);
    const other = await k.engine({}, AGENTS);
    await owner.call('go', { sessionId: 'ses_records' });
    const { taskId } = owner.tasks.list('ses_records')[0]!;
    expect((await owner.tasks.whenSettled(taskId))?.state).toBe('done');
    await waitFor(() => other.tasks.get(taskId)?.state === 'done');
    const { redis, keys } = (await k.backend()).parts;
    const logs = await redis.keys(`${keys.log(taskId)}.*`);
    expect(logs).toHaveLength(1);
    expect(await redis.xlen(logs[0]!)).toBeGreaterThan(1);

    await owner.sessions.delete?.('ses_records');
    expect(await redis.exists(keys.task(taskId))).toBe(0);
    expect(await redis.xlen(logs[0]!)).toBe(0);
    await waitFor(() => other.tasks.get(taskId) === undefined);
    expect((await k.engine({}, AGENTS)).tasks.get(taskId)).toBeUndefined();
  });
});
