import { afterEach, describe, expect, it } from 'vitest';
import { own, record } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { expectBatchOutcome, faultyChildEvents, startFaultRun } from '../support/fault-batch.js';

// Faults of the model's HTTP exchange, met by one child of a three-task multitask (or by the
// main agent itself), through the real `openai` client against the fake server.

let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('a child meets a model fault; the parent ends once, the siblings keep their results', () => {
  it('HTTP 500 on every attempt: retried by the client, then a failure result naming the status', async () => {
    const started = await startFaultRun({
      faulty: () => ({ status: 500, errorMessage: 'upstream exploded', headers: { 'retry-after-ms': '1' } }),
      maxRetries: 2,
    });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, { status: 'failure', content: /^ERROR: the faulty task ended abnormally: .*HTTP 500: upstream exploded/ });
    // One attempt and two retries, every one answered 500; the siblings needed one request each.
    expect(fixture.requestsOf('faulty').map((r) => r.status)).toEqual([500, 500, 500]);
    expect(fixture.requestsOf('alpha')).toHaveLength(1);
    expect(fixture.requestsOf('beta')).toHaveLength(1);
    // The child's own RunEnd is the abnormal end, not an error of its stream.
    expect(faultyChildEvents(started.run.events).at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('HTTP 500') });
  });

  it('429 with Retry-After: the client waits as told, retries, and the child succeeds', async () => {
    let calls = 0;
    const started = await startFaultRun({
      faulty: (turn) =>
        ++calls === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { text: `faulty did ${turn.prompt} after waiting` },
      maxRetries: 2,
    });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, { status: 'success', content: /^faulty did job two after waiting$/ });
    expect(fixture.requestsOf('faulty').map((r) => r.status)).toEqual([429, 200]);
    // That the wait is the 1 s the server asked for is pinned on virtual time in
    // test/model/openai-retries.test.ts (a Retry-After the model honours as it is).
  });

  it('a connection reset mid-stream: not retried, a failure result saying the connection closed', async () => {
    const started = await startFaultRun({
      faulty: () => ({ text: 'a partial answer that never arrives in full', chunkSize: 4, resetAfterChunks: 3 }),
      maxRetries: 2,
    });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, { status: 'failure', content: /^ERROR: the faulty task ended abnormally: .*(other side closed|terminated|ECONNRESET)/ });
    // A streaming body that broke cannot be retried: one request, cut off by the server.
    expect(fixture.requestsOf('faulty').map((r) => [r.status, r.aborted])).toEqual([[200, true]]);
    // The deltas that did arrive were streamed before the failure.
    const deltas = own(faultyChildEvents(started.run.events), 'ReasonDelta').map((e) => e.text).join('');
    expect('a partial answer that never arrives in full'.startsWith(deltas)).toBe(true);
  });

  it('a malformed SSE chunk: a failure result saying the response could not be read', async () => {
    const started = await startFaultRun({ faulty: () => ({ text: 'an answer broken in the middle', chunkSize: 4, malformedChunk: true }), maxRetries: 2 });
    fixture = started.fixture;
    await expectBatchOutcome(started.run, { status: 'failure', content: /^ERROR: the faulty task ended abnormally: .*could not be read \(.*JSON/ });
    expect(fixture.requestsOf('faulty')).toHaveLength(1);
  });
});

describe('the main agent meets HTTP 500', () => {
  it('ends with one abnormal RunEnd naming the status, and completes (no Observable error)', async () => {
    fixture = await startDelegationFixture({ main: () => ({ status: 500, errorMessage: 'main is down', headers: { 'retry-after-ms': '1' } }) });
    const run = record(fixture.engine({ model: fixture.model(undefined, 1) }).stream('hello'));
    await run.done;
    expect(run.error).toBeUndefined();
    expect(run.completed).toBe(true);
    expect(own(run.events, 'RunEnd')).toHaveLength(1);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: true, error: expect.stringMatching(/HTTP 500: main is down/) });
    expect(run.events[0]).toMatchObject({ type: 'RunStart' });
    expect(fixture.requestsOf('main').map((r) => r.status)).toEqual([500, 500]);
  });

  it('call() resolves with abnormal: true instead of rejecting', async () => {
    fixture = await startDelegationFixture({ main: () => ({ status: 500, errorMessage: 'main is down' }) });
    const result = await fixture.engine().call('hello');
    expect(result).toMatchObject({ abnormal: true, text: '', error: expect.stringContaining('HTTP 500') });
  });
});
