/**
 * What the tests of forged `forget` messages on the tasks and runs channels start
 * (test/backend/forged-forget*.test.ts): two backends on one Redis prefix, an owner's and a
 * watcher's copy of the channel's tasks or runs, one of them published by the owner and seen
 * by the watcher, and a connection of the attacker's, who can publish anything there.
 *
 * @module
 */
import { Redis } from 'ioredis';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import type { RedisKeys } from '../../src/backend/redis-keys.js';
import { RedisSharedRuns } from '../../src/backend/redis-shared-runs.js';
import { SharedTasks } from '../../src/backend/shared-tasks.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { waitFor, type ScaleKits } from '../backend/scale-kit.js';

/** How long the scene's backends wait before a missed heartbeat counts: never, within a test. */
const STALL_MS = 60_000;

/** The two copies, their backends (`a` the owner's, `b` the watcher's), and the attacker's connection. */
export interface ForgetScene<T> {
  readonly a: RedisBackend;
  readonly b: RedisBackend;
  readonly keys: RedisKeys;
  /** The copy that published the task or run. */
  readonly owner: T;
  /** The other engine's copy, which saw it. */
  readonly watcher: T;
  readonly attacker: Redis;
  /** Stops the owner's copy alone, as when its instance died (it no longer says its record again). */
  stopOwner(): void;
  /** Stops both copies and cuts the attacker's connection (the backends close with their kit). */
  stop(): void;
}

/** The scene's copies of the tasks channel, with `task_f` (a running background task of `ses_f`) published by the owner. */
export async function tasksScene(scale: ScaleKits): Promise<ForgetScene<SharedTasks>> {
  const scene = await startScene(scale, async (backend, name) => {
    const made = await SharedTasks.create(backend.parts.redis, backend.parts.keys, backend.parts.hub, 60_000, name);
    return { copy: made.tasks, stop: made.stop };
  });
  const info: TaskInfo = { taskId: 'task_f', agentName: 'explorer', description: 'd', sessionId: 'ses_f', parentRunId: 'run_p', background: true, state: 'running', startedAt: Date.now() };
  scene.owner.publish(info);
  await waitFor(() => scene.watcher.get('task_f')?.state === 'running');
  return scene;
}

/** The scene's copies of the runs channel, with `run_f` (a running run of `ses_f`) published by the owner. */
export async function runsScene(scale: ScaleKits): Promise<ForgetScene<RedisSharedRuns>> {
  const scene = await startScene(scale, async (backend, name) => {
    const made = await RedisSharedRuns.create(backend.parts.redis, backend.parts.keys, backend.parts.hub, name);
    return { copy: made.runs, stop: made.stop };
  });
  scene.owner.publish({ info: { runId: 'run_f', sessionId: 'ses_f', agentName: 'main', state: 'running', startedAt: Date.now() }, pending: [] });
  await waitFor(() => scene.watcher.get('run_f') !== undefined);
  return scene;
}

type MakeCopy<T> = (backend: RedisBackend, name: string) => Promise<{ copy: T; stop: () => void }>;

async function startScene<T>(scale: ScaleKits, make: MakeCopy<T>): Promise<ForgetScene<T>> {
  const k = await scale.kit(STALL_MS);
  const [a, b] = [await k.backend(), await k.backend()];
  const owner = await make(a, 'owner');
  const watcher = await make(b, 'watcher');
  const attacker = new Redis(scale.redis.url);
  return {
    a,
    b,
    keys: a.parts.keys,
    owner: owner.copy,
    watcher: watcher.copy,
    attacker,
    stopOwner: owner.stop,
    stop: () => {
      attacker.disconnect();
      owner.stop();
      watcher.stop();
    },
  };
}
