/**
 * An app instance's event loop lags under load (many runs): its heartbeat, the key its
 * dead-owner sweep beats every third of a stall interval, must outlast a lag of about one stall
 * interval, or another engine's sweep takes the live engine for dead and fails its runs ("the
 * app instance running run ... stopped"). The owner here is an engine in a process of its
 * own, held still (SIGSTOP: nothing of it runs, as when its loop is busy) for a quarter more
 * than a stall interval while the test's engine sweeps; then it goes on.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { createGate } from '../support/deferred.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess } from './worker-processes.js';

/** Long enough that a loaded machine's late timers stay well inside the margin (two intervals less the hold and a beat's third). */
const STALL_MS = 2000;

describe.skipIf(!HAS_REDIS)('a live app instance whose event loop lags', () => {
  const scale = useScaleKits();
  let proc: ChildProcess | undefined;
  afterEach(() => {
    proc?.kill('SIGCONT');
    proc?.kill('SIGKILL');
    proc = undefined;
  });

  it('keeps its running run through a lag of more than one stall interval: another engine does not reap it', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const k = await scale.kit(STALL_MS);
    const answer = createGate();
    k.fixture.route({ main: () => answer.promise.then(() => ({ text: 'alive despite the lag' })) });
    const watcher = await k.engine();
    const owner = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    proc = owner.child;
    await waitFor(() => watcher.runs.get(owner.runId)?.state === 'running');
    await waitFor(() => k.fixture.server.requests.length === 1);
    const attached = lastValueFrom(watcher.runs.attach(owner.runId).pipe(toArray())).catch((e: unknown) => e);

    // A quarter more than the stall interval: a key that lived one interval past its last beat
    // lapses whenever that beat was; one of two intervals does not. The watcher sweeps meanwhile.
    proc.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, STALL_MS * 1.25));
    proc.kill('SIGCONT');
    // Two sweeps of the watcher (each a third interval apart) see the owner beating again first.
    await new Promise((r) => setTimeout(r, STALL_MS * 0.7));
    answer.open();

    const events = await attached;
    expect(events, String(events)).toBeInstanceOf(Array);
    expect((events as { event: unknown }[]).at(-1)!.event).toMatchObject({ type: 'RunEnd', text: 'alive despite the lag' });
    await waitFor(() => watcher.runs.get(owner.runId)?.state === 'done');
  });
});
