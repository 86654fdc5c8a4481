/**
 * On a Redis backend, a conversation's waiting background results are taken from Redis for
 * its next prompt. When that prompt cannot be saved, the run fails, and the results it took
 * must wait for the conversation's next turn, on any engine. The shared tracker gave them
 * back to its in-process list only: its next take found them marked taken, and Redis had
 * deleted them, so they were lost.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import { publishResult } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import type { HarnessBackend } from '../../src/engine/harness-backend.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('digger')];

/** The backend's own Redis session store, whose next append of conversation `s` rejects once it is armed (`refused`: what it refused). */
function failingOnce(store: SessionStore): { sessions: SessionStore; arm: () => void; refused: () => readonly ChatMessage[] } {
  let armed = false;
  let refused: readonly ChatMessage[] = [];
  const append = (sessionId: string, messages: readonly ChatMessage[]): ReturnType<SessionStore['append']> => {
    if (armed && sessionId === 's') {
      armed = false;
      refused = messages;
      return Promise.reject(new Error('EIO: i/o error, write'));
    }
    return store.append(sessionId, messages);
  };
  const sessions = new Proxy(store, {
    get: (target, name) => {
      if (name === 'append') return append;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { sessions, arm: () => (armed = true), refused: () => refused };
}

/** `backend` with its sessions replaced (the rest is the backend's own). */
function withSessions(backend: RedisBackend, sessions: SessionStore): HarnessBackend {
  return {
    sessions,
    eventLog: backend.eventLog,
    runs: backend.runs,
    createTracker: (limits) => backend.createTracker(limits),
    childLauncher: (wiring) => backend.childLauncher(wiring),
    newTokenBudget: (limit) => backend.newTokenBudget(limit),
  };
}

function finished(i: number): TaskInfo {
  return { taskId: `task_${i}`, agentName: 'digger', description: `dig ${i}`, sessionId: 's', parentRunId: 'run_1', background: true, state: 'done', startedAt: 1, endedAt: 2, result: `found ${i}` };
}

function lastPrompt(kit: ScaleKit): string {
  return JSON.stringify(kit.fixture.requestsOf('main').at(-1)!.body.messages?.at(-1));
}

describe.skipIf(!HAS_REDIS)('background results and a prompt that cannot be saved, on a backend', () => {
  const scale = useScaleKits();

  it.each([
    ['the same engine', false],
    ['another engine', true],
  ])("wait for the conversation's next turn, on %s, once", { timeout: 60_000 }, async (_, elsewhere) => {
    const kit = await scale.kit(30_000);
    kit.fixture.route({
      main: (turn) =>
        turn.step === 1 && turn.prompt === 'start it'
          ? { toolCalls: [{ name: 'task', arguments: { ...taskArgs('digger', 'dig', 'bg dig'), background: true } }] }
          : { text: 'ok' },
      digger: () => ({ text: 'found the treasure' }),
    });
    await kit.worker();
    const backend = await kit.backend();
    const { sessions, arm, refused } = failingOnce(backend.sessions);
    // The kit closes the engines it made; this one is closed here, before its backend is.
    const engine = kit.fixture.engine({ backend: withSessions(backend, sessions) }, AGENTS);
    try {
      await engine.call('start it', { sessionId: 's' });
      const [task] = engine.tasks.list('s');
      await engine.tasks.whenSettled(task!.taskId);
      // The worker publishes the result and settles the record together: wait for the result in
      // Redis, then for this engine's copy of it, so the failed turn takes it.
      await vi.waitFor(async () => expect(await backend.parts.redis.hlen(backend.parts.keys.results('s'))).toBe(1), { timeout: 15_000, interval: 10 });
      await caughtUp(backend);

      arm();
      const failed = await engine.call('what came back?', { sessionId: 's' });
      expect(failed.error).toContain('EIO');
      // The failed turn did take the result (else the next turn would get it without any put-back).
      expect(JSON.stringify(refused())).toContain('found the treasure');
      expect(lastPrompt(kit)).not.toContain('found the treasure'); // the failed turn never reached the model

      const next = elsewhere ? await kit.engine({}, AGENTS) : engine;
      await next.call('and now?', { sessionId: 's' });
      expect(lastPrompt(kit)).toContain('found the treasure');
      expect(lastPrompt(kit)).toContain(task!.taskId);
      // Delivered once: not again here, nor on the other engine.
      await engine.call('anything else?', { sessionId: 's' });
      expect(lastPrompt(kit)).not.toContain('found the treasure');
      const third = await kit.engine({}, AGENTS);
      await third.call('still nothing?', { sessionId: 's' });
      expect(lastPrompt(kit)).not.toContain('found the treasure');
    } finally {
      await engine.close();
    }
  });

  it('are given back in Redis with their note, where they stood, within the bound', async () => {
    const kit = await scale.kit();
    const limits = { undeliveredResults: 3 };
    const [engineSide, workerSide] = await Promise.all([kit.backend(), kit.backend()]);
    const tracker = engineSide.createTracker(limits);
    for (let i = 0; i < 5; i++) await publishResult(workerSide.parts.redis, workerSide.parts.keys, finished(i));
    await caughtUp(engineSide);
    const taken = tracker.takeUndelivered('s');
    const note = tracker.takeDropped('s');
    expect(note).toEqual({ count: 2, taskIds: ['task_0', 'task_1'] });

    tracker.putBack('s', taken, note);
    // A newer result: the bound drops the oldest waiting one, a given-back one.
    await publishResult(workerSide.parts.redis, workerSide.parts.keys, finished(5));
    await caughtUp(engineSide);
    const other = (await kit.backend()).createTracker(limits);
    expect(other.takeUndelivered('s').map((t) => t.taskId).sort()).toEqual(['task_3', 'task_4', 'task_5']);
    expect(other.takeDropped('s')).toEqual({ count: 3, taskIds: ['task_0', 'task_1', 'task_2'] });
    // Once: the engine that gave them back does not deliver them again. Its read-back of the
    // note, coalesced, may owe one more read (the other engine's take came while one was in flight).
    await caughtUp(engineSide);
    await caughtUp(engineSide);
    expect(tracker.takeUndelivered('s')).toEqual([]);
    expect(tracker.takeDropped('s')).toBeUndefined();
  });
});
