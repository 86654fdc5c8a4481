import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { own, record } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from '../support/delegation-script.js';
import { handleCounts, leakedHandles } from '../support/handle-counts.js';

// After a run — finished, cancelled mid-stream, or cancelled in the middle of a multitask —
// and once the fake server is closed, no timer, socket or process handle is left, and the
// run took its listener off the caller's AbortSignal.

let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const BATCH: TaskTuple[] = [1, 2, 3, 4].map((i) => [i, 'alpha', `job ${i}`, `task ${i}`] as const);

/** Closes the server (and the fixture's folders) and returns what is still open. */
async function closeAndCheck(baseline: ReturnType<typeof handleCounts>): Promise<Record<string, number>> {
  await fixture!.close();
  fixture = undefined;
  return leakedHandles(baseline);
}

describe('nothing is left behind', () => {
  it('after a finished streamed run with a multitask, and after call()', async () => {
    const baseline = handleCounts();
    fixture = await startDelegationFixture({
      main: steps(multitaskReply(BATCH.slice(0, 3))),
      alpha: (turn) => ({ text: `alpha did ${turn.prompt}`, chunkDelayMs: 2 }),
    });
    const engine = fixture.engine({ multitaskMaxTasks: 2 }, [testAgent('alpha')]);
    const { server } = fixture;
    const controller = new AbortController();
    const run = record(engine.stream('go', { signal: controller.signal }));
    await run.done;
    expect(run.completed).toBe(true);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const result = await engine.call('again', { signal: controller.signal });
    expect(result.abnormal).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(engine.tasks.list().map((t) => t.state)).toEqual(Array(6).fill('done'));

    expect(await closeAndCheck(baseline)).toEqual({});
  });

  it('after a run cancelled by unsubscribing mid-stream', async () => {
    const baseline = handleCounts();
    fixture = await startDelegationFixture({ main: () => ({ text: 'a long answer, streamed slowly. '.repeat(20), chunkSize: 8, chunkDelayMs: 20 }) });
    const controller = new AbortController();
    const run = record(fixture.engine().stream('talk', { signal: controller.signal }));
    await vi.waitFor(() => expect(own(run.events, 'ReasonDelta').length).toBeGreaterThan(0), { timeout: 5_000, interval: 5 });
    run.subscription.unsubscribe();

    expect((await fixture.server.waitForClosed(0)).aborted).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(own(run.events, 'RunEnd')).toHaveLength(0);
    expect(await closeAndCheck(baseline)).toEqual({});
  });

  it('after a multitask cancelled with children in flight and tasks queued', async () => {
    const baseline = handleCounts();
    fixture = await startDelegationFixture({ main: steps(multitaskReply(BATCH)), alpha: () => ({ hang: true }) });
    const engine = fixture.engine({ multitaskMaxTasks: 2 }, [testAgent('alpha')]);
    const { server } = fixture;
    const controller = new AbortController();
    const run = record(engine.stream('go', { signal: controller.signal }));
    await fixture.server.waitForRequests(3); // main + two children; two tasks queued
    run.subscription.unsubscribe();

    const children = fixture.requestsOf('alpha');
    expect(children).toHaveLength(2);
    for (const child of children) expect((await fixture.server.waitForClosed(child.index)).aborted).toBe(true);
    // The two running and the two queued (recorded while they waited) are all cancelled.
    expect(engine.tasks.list().map((t) => t.state)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await closeAndCheck(baseline)).toEqual({});
    // The queued tasks never started, not even after the others were cancelled: the server saw
    // only the two children's requests, and the four records stay cancelled.
    expect(server.requests).toHaveLength(3);
    expect(engine.tasks.list().map((t) => t.state)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
  });
});
