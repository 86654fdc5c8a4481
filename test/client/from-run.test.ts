import { lastValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerApproval, cancelRun, fromRun, getRun, RunConnectionError, RunRequestError, startRun, type FromRunOptions } from '../../src/client/index.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { oneTo, serveRuns, type RunsServer } from '../http/http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const words = (n: number, delayMs: number) => new ScriptedModel(() => ({ text: 'word '.repeat(n), chunkSize: 5, chunkDelayMs: delayMs }));

/** The global fetch, counting its calls. */
function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return { calls, fetch: (input, init) => (calls.push(String(input)), fetch(input, init)) };
}

describe('rxharness/client against runsHandler', () => {
  it('startRun, then fromRun follows the run to its end: every event once, in order, then complete', async () => {
    served = await serveRuns({ model: words(20, 2) });
    const { runId, sessionId } = await startRun(served.url, { prompt: 'go', sessionId: 'ses-1' });
    expect(sessionId).toBe('ses-1');
    const events = await lastValueFrom(fromRun(served.url, runId).pipe(toArray()));
    expect(events.map((e) => e.seq)).toEqual(oneTo(events.length));
    expect(events[0]!.event).toMatchObject({ type: 'RunStart', prompt: 'go' });
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect(await getRun(served.url, runId)).toMatchObject({ runId, sessionId, state: 'done' });
    const rest = await lastValueFrom(fromRun(`${served.url}/`, runId, { after: 3 }).pipe(toArray()));
    expect(rest).toEqual(events.slice(3));
  });

  it('an unknown run is a final 404 RunRequestError with the server text: one request, no retry', async () => {
    served = await serveRuns({ model: words(1, 0) });
    const counted = countingFetch();
    const error = await lastValueFrom(fromRun(served.url, 'run_nope', { fetch: counted.fetch })).catch((e: unknown) => e);
    expect(RunRequestError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, name: 'RunRequestError', serverError: expect.stringMatching(/^unknown run "run_nope"/) });
    expect((error as Error).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/runs\/run_nope\/events\?after=0 answered 404: unknown run/);
    expect(counted.calls).toHaveLength(1);
  });

  it('errors from startRun, cancelRun and answerApproval carry the status and the server text', async () => {
    // The run of "s" must still be going at the second start (a 409): it answers only after a minute (cut at the end).
    served = await serveRuns({ model: new ScriptedModel(() => ({ text: 'ok', delayMs: 60_000 })) });
    await expect(startRun(served.url, { prompt: ' ' })).rejects.toMatchObject({ status: 400, serverError: expect.stringMatching(/"prompt" must be a non-empty string/) });
    await expect(startRun(served.url, { prompt: 'x', agentName: 'ghost' })).rejects.toMatchObject({ status: 400, serverError: expect.stringMatching(/unknown agent "ghost"/) });
    const { runId } = await startRun(served.url, { prompt: 'x', sessionId: 's' });
    await expect(startRun(served.url, { prompt: 'y', sessionId: 's' })).rejects.toMatchObject({ status: 409 });
    await expect(answerApproval(served.url, runId, { approvalId: 'call/1?' }, 'approve')).rejects.toMatchObject({ status: 404, serverError: `no approval "call/1?" (of that task) is pending in run "${runId}"` });
    await expect(cancelRun(served.url, 'run_nope')).rejects.toMatchObject({ status: 404, name: 'RunRequestError' });
    await expect(getRun(served.url, 'run_nope')).rejects.toMatchObject({ status: 404 });
  });

  it('cancelRun: the events so far, then an AbortError; a follower that comes later gets the same', async () => {
    served = await serveRuns({ model: new ScriptedModel([{ text: 'never', delayMs: 60_000 }]) });
    const { runId } = await startRun(served.url, { prompt: 'go' });
    const seen: SequencedEvent[] = [];
    const ended = new Promise<unknown>((resolve) => fromRun(served!.url, runId).subscribe({ next: (e) => seen.push(e), error: resolve, complete: () => resolve('completed') }));
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    await cancelRun(served.url, runId);
    const error = await ended;
    expect(error).toMatchObject({ name: 'AbortError', message: 'The run was aborted: the run was cancelled' });
    await expect(lastValueFrom(fromRun(served.url, runId))).rejects.toMatchObject({ name: 'AbortError' });
    expect((await getRun(served.url, runId)).state).toBe('cancelled');
  });

  it('unsubscribing aborts the request (the server sees the connection close) and the run goes on', async () => {
    served = await serveRuns({ model: words(40, 5) });
    const { runId } = await startRun(served.url, { prompt: 'go' });
    const first = await lastValueFrom(fromRun(served.url, runId).pipe(take(3), toArray()));
    expect(first.map((e) => e.seq)).toEqual([1, 2, 3]);
    await expect.poll(() => served!.openStreams()).toBe(0); // the server saw the events connection close
    expect((await getRun(served.url, runId)).state).toBe('running');
    const all = await lastValueFrom(fromRun(served.url, runId).pipe(toArray()));
    expect(all.at(-1)!.event.type).toBe('RunEnd');
  });

  it('retries a busy server (503) with backoff, then follows the run', async () => {
    served = await serveRuns({ model: words(3, 0) });
    const { runId } = await startRun(served.url, { prompt: 'go' });
    let calls = 0;
    const flaky: typeof fetch = (input, init) => (++calls <= 2 ? Promise.resolve(new Response('{"error":"restarting"}', { status: 503 })) : fetch(input, init));
    const events = await lastValueFrom(fromRun(served.url, runId, { fetch: flaky, retryDelayMs: 1 }).pipe(toArray()));
    expect(events.at(-1)!.event.type).toBe('RunEnd');
    expect(events.map((e) => e.seq)).toEqual(oneTo(events.length));
    expect(calls).toBe(3);
  });

  describe('the reconnection backoff, in fake time', () => {
    afterEach(() => void vi.useRealTimers());

    /**
     * The virtual times of the connections of a follower whose first `failures` connections
     * answer 503, then the real server's answer for a finished run (read before the clock
     * was faked): the backoff between them to the millisecond.
     */
    async function connectionTimes(failures: number, options: FromRunOptions): Promise<{ times: number[]; events: SequencedEvent[] }> {
      served = await serveRuns({ model: words(3, 0) });
      const { runId } = await startRun(served.url, { prompt: 'go' });
      await lastValueFrom(fromRun(served.url, runId)); // it has ended
      const answer = await fetch(`${served.url}/runs/${runId}/events?after=0`);
      const body = await answer.text();
      const headers = Object.fromEntries(answer.headers);
      vi.useFakeTimers({ now: 0 });
      const times: number[] = [];
      const flaky: typeof fetch = () => {
        times.push(Date.now()); // the fake clock's
        return Promise.resolve(times.length <= failures ? new Response('{"error":"restarting"}', { status: 503 }) : new Response(body, { status: 200, headers }));
      };
      const ended = lastValueFrom(fromRun(served.url, runId, { ...options, fetch: flaky }).pipe(toArray()));
      await vi.runAllTimersAsync();
      return { times, events: await ended };
    }

    it('waits retryDelayMs, then twice as long after each further failure: 40, 80, 160, 320, 640 ms', async () => {
      const { times, events } = await connectionTimes(5, { retryDelayMs: 40, maxRetries: 5 });
      expect(times).toEqual([0, 40, 120, 280, 600, 1240]);
      expect(events.at(-1)!.event.type).toBe('RunEnd');
    });

    it('never waits more than 10 s between two connections', async () => {
      const { times } = await connectionTimes(4, { retryDelayMs: 3000 });
      expect(times).toEqual([0, 3000, 9000, 19_000, 29_000]);
    });

    it('the default: 250 ms first', async () => {
      const { times } = await connectionTimes(2, {});
      expect(times).toEqual([0, 250, 750]);
    });
  });

  it('gives up after maxRetries failures in a row with a RunConnectionError naming the last cause; no timer is left', async () => {
    const baseline = resourceCounts();
    served = await serveRuns({ model: words(3, 0) });
    const { runId } = await startRun(served.url, { prompt: 'go' });
    const url = served.url;
    await served.close();
    served = undefined;
    const counted = countingFetch();
    const error = await lastValueFrom(fromRun(url, runId, { fetch: counted.fetch, maxRetries: 3, retryDelayMs: 1 })).catch((e: unknown) => e);
    expect(RunConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 4, runId, message: expect.stringMatching(new RegExp(`^lost the connection to run "${runId}": 4 attempts in a row failed, the last with: fetch failed`)) });
    expect(counted.calls).toHaveLength(4);
    expect(await leakedResources(baseline)).toEqual({});
  });

  it('rejects bad options at once', () => {
    expect(() => fromRun('/api', 'run_1', { after: -1 })).toThrow(RangeError);
    expect(() => fromRun('/api', 'run_1', { maxRetries: 1.5 })).toThrow('fromRun: maxRetries must be a whole number, at least 0, got 1.5');
  });
});
