import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { liveWorkers } from '../../src/backend/worker-presence.js';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { expectBusyWorkerWaitedFor, expectNoWorkerFailure } from './worker-expectations.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, workerProcess } from './worker-processes.js';

const AGENTS = [testAgent('explorer')];

// A hosted Redis that refuses CLIENT commands (BullMQ's getWorkersCount is CLIENT LIST):
// worker presence must not need them.
describe.skipIf(!HAS_REDIS)('worker presence without CLIENT LIST', () => {
  const scale = useScaleKits(['--rename-command', 'CLIENT', '']);
  let proc: ChildProcess | undefined;
  afterEach(() => {
    proc?.kill('SIGKILL');
    proc = undefined;
  });

  it('the server refuses CLIENT LIST', async () => {
    const k = await scale.kit();
    const { redis } = (await k.backend()).parts;
    await expect(redis.client('LIST')).rejects.toThrow(/unknown command/i);
  });

  it('a task launched while no worker is alive fails within the stall interval, saying how to start one', async () => {
    await expectNoWorkerFailure(await scale.kit(500));
  });

  it('a closed worker stops counting at once; a task launched after it fails too', async () => {
    const k = await scale.kit(500);
    const probe = (await k.backend()).parts;
    const worker = await k.worker();
    const other = await k.worker();
    expect(await liveWorkers(probe)).toBe(2);
    await worker.close();
    // At once: well within the stall interval its last beat would otherwise count for.
    expect(await liveWorkers(probe)).toBe(1);
    await other.close();
    expect(await liveWorkers(probe)).toBe(0);
    k.fixture.route({ main: steps(taskReply('explorer', 'anyone?', 'nobody')) });
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    expect((await engine.call('go')).text).toContain('no worker is pulling tasks');
  });

  it('a task waiting behind a busy live worker waits as long as it takes (longer than the stall interval)', async () => {
    await expectBusyWorkerWaitedFor(await scale.kit(1000));
  });

  it('a worker killed with SIGKILL stops counting after the stall interval; a task launched then fails', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const STALL_MS = 1000;
    const k = await scale.kit(STALL_MS);
    const probe = (await k.backend()).parts;
    proc = await workerProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS });
    expect(await liveWorkers(probe)).toBe(1);
    proc.kill('SIGKILL');
    // Still counted for a moment (it cannot say it left), then no longer. No time limit but
    // the test's: a dead worker counted forever fails it; how soon is bench/'s.
    await waitFor(async () => (await liveWorkers(probe)) === 0, 15_000);
    k.fixture.route({ main: steps(taskReply('explorer', 'anyone?', 'nobody')) });
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const { text } = await engine.call('go');
    expect(text).toContain('no worker is pulling tasks');
  });

  it('a job waiting when its only worker is SIGKILLed fails within two stall intervals', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const STALL_MS = 1000;
    const k = await scale.kit(STALL_MS);
    // The process's one slot hangs on the first task; the second waits behind it in the queue.
    k.fixture.route({ main: steps(multitaskReply([[1, 'explorer', 'first', 'one'], [2, 'explorer', 'second', 'two']])), explorer: () => ({ hang: true }) });
    proc = await workerProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, concurrency: 1 });
    const engine = await k.engine({ distributeTasks: true, multitaskMaxTasks: 2 }, AGENTS);
    const result = engine.call('go');
    await waitFor(() => k.fixture.requestsOf('explorer').length === 1);
    proc.kill('SIGKILL');
    // No time limit but the test's: a job left waiting for a dead worker forever fails it.
    const { text } = await result;
    expect(text).toContain('the worker running it stopped');
    expect(text).toContain('no worker is pulling tasks');
  });
});
