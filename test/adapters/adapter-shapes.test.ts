import http, { type Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { liveTree, parseNdjson, sseHandler, streamSse, toAsyncIterable, toNdjson, toUiItems, writeNdjson } from '../../src/adapters/index.js';
import { multitaskRun } from './fixtures.js';
import { close, connect, listen } from './sse-client.js';

// The family has two shapes: operators go in `pipe`; sinks take the stream first,
// `(events$, target, options)`. A caller (in plain JavaScript) with the old order is told so
// at once, before anything is written to the target.

/** Casts for the calls a plain-JavaScript caller could make with the arguments swapped. */
const asStream = (value: unknown): Observable<AgentEvent> => value as Observable<AgentEvent>;

let server: Server | undefined;
afterEach(async () => {
  if (server) await close(server);
  server = undefined;
});

describe('operators', () => {
  it('liveTree, toNdjson, parseNdjson and toUiItems chain in one pipe', async () => {
    const { events } = multitaskRun();
    const output = new PassThrough();
    output.resume();
    const items = await lastValueFrom(from(events).pipe(liveTree({ output }), toNdjson(), parseNdjson(), toUiItems(), toArray()));
    expect(items.map((item) => item.kind).filter((kind) => kind === 'task-start')).toHaveLength(3);
    expect(items.at(-1)?.kind).toBe('result');
  });

  it('liveTree takes only its options, and says how to use it when given a stream', () => {
    const { events } = multitaskRun();
    const stream = from(events);
    const stale = liveTree as unknown as (events$: unknown, options: unknown) => unknown;
    expect(() => stale(stream, { output: process.stdout })).toThrow(TypeError);
    expect(() => stale(stream, { output: process.stdout })).toThrow('events$.pipe(liveTree({ output }))');
  });
});

describe('sinks take the stream first', () => {
  it('streamSse(events$, res) throws on a response in first place, before writing a header', async () => {
    let written: boolean | undefined;
    let thrown: unknown;
    server = http.createServer((_req, res) => {
      try {
        streamSse(asStream(res), res);
      } catch (error) {
        thrown = error;
      }
      written = res.headersSent;
      res.end();
    });
    const url = await listen(server);
    const client = await connect(url);
    await client.ended;
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toMatch(/^streamSse\(events\$, res, options\): the first argument must be the run's Observable of events, got ServerResponse$/);
    expect(written).toBe(false);
  });

  it('sseHandler answers a factory that returns no Observable with event: error, not a crash', async () => {
    server = http.createServer(sseHandler(() => asStream(Promise.resolve([])), { keepAliveMs: 0 }));
    const client = await connect(await listen(server));
    await client.ended;
    expect(client.messages).toEqual([
      { event: 'error', data: JSON.stringify({ name: 'TypeError', message: 'The sseHandler factory must return an Observable of events' }) },
    ]);
  });

  it('writeNdjson(events$, writable) rejects a writable in first place and writes nothing', async () => {
    const out = new PassThrough();
    await expect(writeNdjson(asStream(out), out as unknown as NodeJS.WritableStream)).rejects.toThrow(
      "writeNdjson(events$, writable, options): the first argument must be the run's Observable of events, got PassThrough",
    );
    expect(out.writableLength).toBe(0);
  });

  it('toAsyncIterable(events$) throws on anything but an Observable', () => {
    expect(() => toAsyncIterable(asStream([]))).toThrow("toAsyncIterable(events$, options): the first argument must be the run's Observable of events, got Array");
    expect(() => toAsyncIterable(asStream(undefined))).toThrow(TypeError);
  });
});
