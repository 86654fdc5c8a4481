/**
 * fromRun against servers that break the protocol: the run ends at its RunEnd whatever the
 * server does next, a stream that ends without one is an error, and an event of the wrong
 * shape is refused before any consumer reads it.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromRun, RunStreamError } from '../../src/client/index.js';
import { delta, END, frame, metrics, RUN, runEnd, runStart, scriptedFetch, silentAfter } from './fake-events-server.js';

const types = (events: readonly { event: { type: string } }[]) => events.map((e) => e.event.type);

describe('fromRun ends at the run\'s RunEnd', () => {
  it("a server's `event: error` is a RunStreamError ended by the server, in the server's words", async () => {
    const server = scriptedFetch(() => frame(1, runStart) + 'event: error\ndata: {"name":"UnknownRunError","message":"the run was evicted"}\n\n');
    const error = await lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch })).catch((e: unknown) => e);
    expect(error).toMatchObject({ serverName: 'UnknownRunError', endedBy: 'server', message: `run "${RUN}" ended with an error on the server: UnknownRunError: the run was evicted` });
  });

  it('completes after the RunEnd although the server keeps the stream open, and lets the connection go', async () => {
    const server = scriptedFetch(() => silentAfter(frame(1, runStart) + frame(2, runEnd) + ': keep-alive\n\n'));
    const events = await lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch }).pipe(toArray()));
    expect(types(events)).toEqual(['RunStart', 'RunEnd']);
    expect(server.cancelled()).toBe(1);
    expect(server.urls).toHaveLength(1);
  });

  it('delivers nothing after the RunEnd: a second, forged RunEnd is never seen', async () => {
    const forged = { ...runEnd, text: 'forged second end' };
    const server = scriptedFetch(() => frame(1, runStart) + frame(2, runEnd) + frame(3, delta('more')) + frame(4, forged) + END);
    const events = await lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch }).pipe(toArray()));
    expect(types(events)).toEqual(['RunStart', 'RunEnd']);
    expect(events.at(-1)!.event).toMatchObject({ text: 'ok' });
  });

  it('a child\'s RunEnd (wrapped) does not end the run', async () => {
    const child = { type: 'TaskWrap', runId: 'c', agentName: 'w', parentRunId: RUN, taskId: 't', taskIndex: 1, taskAgentName: 'w', taskDescription: 'd', multitask: false, event: { ...runEnd, runId: 'c', agentName: 'w' } };
    const server = scriptedFetch(() => frame(1, runStart) + frame(2, child) + frame(3, runEnd) + END);
    const events = await lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch }).pipe(toArray()));
    expect(types(events)).toEqual(['RunStart', 'TaskWrap', 'RunEnd']);
  });

  it('`event: end` after events but without a RunEnd is a RunStreamError (NoRunEnd), after the events it did send', async () => {
    const server = scriptedFetch(() => frame(1, runStart) + frame(2, delta('half')) + END);
    const seen: string[] = [];
    const error = await new Promise((resolve) => fromRun('http://x', RUN, { fetch: server.fetch }).subscribe({ next: (e) => seen.push(e.event.type), error: resolve, complete: () => resolve('completed') }));
    expect(seen).toEqual(['RunStart', 'ReasonDelta']);
    expect(RunStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ serverName: 'NoRunEnd', runId: RUN, endedBy: 'client', message: `the event stream of run "${RUN}" was refused: NoRunEnd: the server ended the stream without the run's RunEnd` });
  });

  it('a bare `end` completes a consumer that asked to start after the RunEnd; from the start it is an error', async () => {
    const server = scriptedFetch(() => END);
    expect(await lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch, after: 2 }).pipe(toArray()))).toEqual([]);
    expect(server.urls[0]).toBe(`http://x/runs/${RUN}/events?after=2`);
    await expect(lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch }))).rejects.toMatchObject({ name: 'RunStreamError', serverName: 'NoRunEnd' });
  });

  it('an `end` on a later connection, after events on an earlier one and no RunEnd, is an error too', async () => {
    const server = scriptedFetch((n) => (n === 0 ? frame(1, runStart) : END));
    await expect(lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch, retryDelayMs: 0 }))).rejects.toMatchObject({ serverName: 'NoRunEnd' });
    expect(server.urls.map((u) => u.slice(-7))).toEqual(['after=0', 'after=1']);
  });
});

describe('fromRun refuses events of the wrong shape', () => {
  it.each([
    ['a RunEnd without metrics', { type: 'RunEnd', runId: RUN, agentName: 'main' }],
    ['a delta whose text is a number', { ...delta('x'), text: 42 }],
    ['a RunEnd whose metrics are not numbers', { ...runEnd, metrics: { ...metrics, totalTokens: '2' } }],
    ['a tool end whose error is not a string', { type: 'ToolCallEnd', runId: RUN, agentName: 'main', step: 1, callId: 'c', toolName: 't', text: '', error: {}, durationMs: 1 }],
    ['a wrapped child event missing its fields', { type: 'TaskWrap', runId: 'c', agentName: 'w', parentRunId: RUN, taskId: 't', taskIndex: 1, taskAgentName: 'w', taskDescription: 'd', multitask: false, event: { type: 'RunEnd', runId: 'c', agentName: 'w' } }],
  ])('%s: a RunStreamError (BadMessage) after the events before it, and no retry', async (_label, bad) => {
    const server = scriptedFetch(() => frame(1, runStart) + frame(2, bad) + frame(3, runEnd) + END);
    const seen: string[] = [];
    const error = await new Promise((resolve) => fromRun('http://x', RUN, { fetch: server.fetch }).subscribe({ next: (e) => seen.push(e.event.type), error: resolve, complete: () => resolve('completed') }));
    expect(error).toMatchObject({ name: 'RunStreamError', serverName: 'BadMessage', endedBy: 'client', message: expect.stringContaining('was refused: BadMessage: ') });
    expect(seen).toEqual(['RunStart']);
    expect(server.urls).toHaveLength(1);
  });
});
