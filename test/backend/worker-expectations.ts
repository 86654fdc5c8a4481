import { expect } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { anyJobLock, LOCK_BEATS_PER_STALL } from './heartbeats.js';
import type { ScaleKit } from './scale-kit.js';

/**
 * A task launched on `k` (its stall interval 500 ms) while no worker is alive: it fails
 * (no time limit but the test's) with the message that says how to start one. Shared by the failover tests and
 * the worker-presence tests (a Redis that refuses CLIENT LIST).
 */
export async function expectNoWorkerFailure(k: ScaleKit): Promise<void> {
  k.fixture.route({ main: steps(taskReply('explorer', 'anyone?', 'nobody')) });
  const engine = await k.engine({ distributeTasks: true }, [testAgent('explorer')]);
  // No time limit but the test's: a launcher that waits for a worker forever fails it.
  const { text } = await engine.call('go');
  expect(text).toContain(`no worker is pulling tasks from this Redis (prefix "${k.prefix}")`);
  expect(text).toContain('rxharness worker --redis URL');
}

/**
 * Two tasks behind one worker of concurrency 1 whose tasks each take two of the kit's stall
 * intervals (counted in the worker's heartbeats on its job, so a loaded machine does not make
 * them shorter than that): the second waits in the queue while the worker is busy and alive,
 * and both succeed. Shared by the failover tests and the worker-presence tests (a Redis that
 * refuses CLIENT LIST): a launcher must never take a busy live worker for no worker at all.
 */
export async function expectBusyWorkerWaitedFor(k: ScaleKit): Promise<void> {
  const beats = await k.heartbeats(anyJobLock((await k.backend()).parts.keys));
  k.fixture.route({
    main: steps(multitaskReply([[1, 'explorer', 'first', 'one'], [2, 'explorer', 'second', 'two']])),
    explorer: (turn) => beats.after(2 * LOCK_BEATS_PER_STALL).then(() => ({ text: `ok: ${turn.prompt}` })),
  });
  await k.worker({ concurrency: 1 });
  const engine = await k.engine({ distributeTasks: true, multitaskMaxTasks: 2 }, [testAgent('explorer')]);
  const { text } = await engine.call('go');
  expect(text.match(/result_status>success/g)).toHaveLength(2);
  expect(text).toContain('ok: first');
  expect(text).toContain('ok: second');
}
