/**
 * A worker's event loop lags under load (a flood of tasks): BullMQ's lock on its job, its
 * heartbeat, must outlast a lag of about one stall interval, or the launcher takes the live
 * worker for dead and fails its task ("no heartbeat"), and BullMQ's stalled-job check fails
 * the job. The lag here is real: the test's process, which runs the in-process worker, is
 * held busy for longer than a stall interval while the task runs.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];
const STALL_MS = 1000;

/** Holds the event loop for `ms`, as a worker busy with many tasks does (nothing else runs meanwhile). */
function holdLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: no timer, no socket is served
  }
}

describe.skipIf(!HAS_REDIS)('a live worker whose event loop lags', () => {
  const scale = useScaleKits();

  it('keeps its running task through a lag of more than one stall interval', async () => {
    const k = await scale.kit(STALL_MS);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    k.fixture.route({
      main: steps(taskReply('explorer', 'dig', 'lagged')),
      explorer: async () => {
        await gate;
        return { text: 'dug despite the lag' };
      },
    });
    await k.worker();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const answer = engine.call('go');
    await waitFor(() => k.fixture.requestsOf('explorer').length === 1);
    // A quarter more than the stall interval: a lock of one interval lapses whenever it was
    // last renewed; one of two intervals, renewed every quarter, does not.
    holdLoop(STALL_MS * 1.25);
    // Two launcher checks (each a quarter interval apart) see the loop free again first.
    await new Promise((r) => setTimeout(r, STALL_MS / 2));
    release();
    const { text } = await answer;
    expect(text).not.toContain('the worker running it stopped');
    expect(text).toContain('dug despite the lag');
  });
});
