/**
 * Where background results go when their tasks run on workers. One of a run without a
 * `sessionId` that finishes after the run ended has no next prompt to go to (as
 * in-process), so it must not wait in Redis for a week, counted in the one bound every
 * conversation's waiting results share, where enough of them push out results a real
 * conversation waits for. One that a background task started on its worker (a grandchild,
 * run in-process there) must reach its conversation, as it would in-process: it was kept in
 * the worker's memory, for nobody.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply } from '../support/lifecycle-script.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('background results of tasks on workers', () => {
  const scale = useScaleKits();

  it('of a run without a sessionId, finished after the run: none is left waiting in Redis; a conversation\'s still waits', async () => {
    const kit = await scale.kit(30_000);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    kit.fixture.route({
      main: steps(lifecycleTaskReply('alpha', 'dig', { background: true })),
      alpha: async () => {
        await gate; // finishes only after the run has ended
        return { text: 'dug' };
      },
    });
    await kit.worker();
    const backend = await kit.backend();
    const engine = await kit.engine({}, [testAgent('alpha')], backend);
    await engine.call('go'); // ephemeral
    const [task] = engine.tasks.list().filter((t) => t.background);
    release();
    await waitFor(() => engine.tasks.get(task!.taskId)?.state === 'done');
    await caughtUp(backend);
    const { redis, keys } = backend.parts;
    // The deadline is for a busy machine; the check is that nothing is left.
    await waitFor(async () => (await redis.zcard(keys.waitingOrder)) === 0 && (await redis.hlen(keys.results(task!.sessionId))) === 0);

    // A conversation's result still waits for its next prompt.
    await engine.call('go', { sessionId: 's1' });
    const [kept] = engine.tasks.list('s1').filter((t) => t.background);
    await waitFor(() => engine.tasks.get(kept!.taskId)?.state === 'done');
    await waitFor(async () => (await redis.hlen(keys.results('s1'))) === 1);
    expect(engine.tasks.takeUndelivered('s1').map((t) => t.result)).toEqual(['dug']);
  });

  it('a background task that a background task started on its worker delivers its result to the conversation', async () => {
    const kit = await scale.kit(30_000);
    kit.fixture.route({
      main: (turn) => (turn.step === 1 && turn.prompt === 'go' ? lifecycleTaskReply('scout', 'look', { background: true }) : { text: `main read: ${turn.prompt}` }),
      // The scout, on a worker, starts a background task of its own there.
      // (a built-in agent: the worker knows it without being told)
      scout: (turn) => (turn.step === 1 ? lifecycleTaskReply('explore', 'dig', { background: true }) : { text: 'scouted' }),
      '*': () => ({ text: 'dug deep' }), // explore's system prompt is its own
    });
    await kit.worker({ maxDepth: 2 });
    const backend = await kit.backend();
    const engine = await kit.engine({ maxDepth: 2 }, [testAgent('scout', { tools: ['task'] })], backend);
    await engine.call('go', { sessionId: 's1' });
    const { redis, keys } = backend.parts;
    // The scout's result and its grandchild's wait for the conversation (the deadline is for a busy machine).
    await waitFor(async () => (await redis.hlen(keys.results('s1'))) === 2);
    await caughtUp(backend);
    const next = await engine.call('next', { sessionId: 's1' });
    expect(next.text).toContain('scouted');
    expect(next.text).toContain('dug deep');
  });
});
