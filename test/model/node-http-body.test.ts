import type { ServerResponse } from 'node:http';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ModelChunk, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { outcomeOf } from '../support/collect.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { agentSocketsFor, HELLO, modelAt, sseChunk } from './node-http-support.js';

// The body of a streamed reply as the node:http transport hands it to the SSE reader: many
// tiny events, bodies cut mid-chunk, and hostile servers that never end a line.

const http = httpServerPerTest();
const SSE = { 'content-type': 'text/event-stream' };
/** Long enough that only the reader's own bound can end the attacks below. */
const PATIENT_MS = 120_000;

async function errorOf(url: string): Promise<{ error: ModelError; chunks: ModelChunk[] }> {
  const { values, error } = await outcomeOf(modelAt(url, { timeoutMs: PATIENT_MS }).stream(HELLO));
  expect(error).toBeInstanceOf(ModelError);
  return { error: error as ModelError, chunks: values };
}

/**
 * Writes `piece` for as long as the client reads (waiting for drain, as a real server would),
 * until the connection closes; resolves with the bytes written.
 */
function flood(res: ServerResponse, piece: string): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    let closed = false;
    res.once('close', () => {
      closed = true;
      resolve(written);
    });
    const pump = (): void => {
      while (!closed) {
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  });
}

describe('node:http transport: what the SSE reader gets', () => {
  it('10,000 tiny events arrive as 10,000 deltas, in order, and one finish with all of them', async () => {
    const events = Array.from({ length: 10_000 }, (_, i) => sseChunk(String(i % 10)));
    const url = await http.serve((_req, res) => {
      res.writeHead(200, SSE);
      // In pieces that cut events (and their lines) anywhere.
      const body = `${events.join('')}${sseChunk('', 'stop')}data: [DONE]\n\n`;
      for (let at = 0; at < body.length; at += 1_000) res.write(body.slice(at, at + 1_000));
      res.end();
    });
    const chunks = await lastValueFrom(modelAt(url).stream(HELLO).pipe(toArray()));
    const deltas = chunks.filter((chunk) => chunk.type === 'text-delta');
    expect(deltas).toHaveLength(10_000);
    const expected = Array.from({ length: 10_000 }, (_, i) => String(i % 10)).join('');
    expect(deltas.map((delta) => delta.text).join('')).toBe(expected);
    expect((chunks.at(-1) as ModelFinish).text).toBe(expected);
  });

  it('a server that closes in the middle of a chunk: the error says the other side closed, the deltas before it came', async () => {
    const url = await http.serve((_req, res) => {
      res.writeHead(200, SSE);
      res.write(sseChunk('before the cut'));
      // Half of a chunk of the chunked encoding, then the connection goes.
      res.socket?.write('40\r\ndata: {"choi', () => res.socket?.destroy());
    });
    const { error, chunks } = await errorOf(url);
    expect(error.message).toBe('model "m": the response could not be read (terminated: other side closed)');
    expect(chunks).toEqual([{ type: 'text-delta', text: 'before the cut' }]);
    expect(agentSocketsFor(url)).toBe(0);
  });

  it('a body shorter than its content-length: the same error', async () => {
    const url = await http.serve((_req, res) => {
      res.writeHead(200, { ...SSE, 'content-length': '10000' });
      res.write(sseChunk('short'), () => res.socket?.destroy());
    });
    const { error } = await errorOf(url);
    expect(error.message).toBe('model "m": the response could not be read (terminated: other side closed)');
  });
});

describe('node:http transport: hostile servers', () => {
  // Before, the reader kept an unended line whole, for as long as the idle watchdog allowed
  // (timeoutMs, 10 minutes by default): at network speed, gigabytes. Now one event may hold
  // 8 MiB at most.
  it('an endless line without a line end: abandoned past 8 MiB, the connection closed, no socket left', async () => {
    let written: Promise<number> | undefined;
    const url = await http.serve((_req, res) => {
      res.writeHead(200, SSE);
      written = flood(res, 'x'.repeat(64 * 1024));
    });
    const baseline = resourceCounts();
    const { error } = await errorOf(url);
    expect(error.message).toBe('model "m": the server sent more than 8 MiB without ending an event, after 0 chunks: this is not a stream of server-sent events; the response was abandoned');
    // The server stops when the client goes: what it wrote is the bound, plus what the sockets buffer.
    expect(await written).toBeLessThan(40 * 1024 * 1024);
    expect(await leakedResources(baseline)).toEqual({});
    expect(agentSocketsFor(url)).toBe(0);
  });

  it('an endless event (data lines and never the blank line that ends it): abandoned the same way', async () => {
    let written: Promise<number> | undefined;
    const url = await http.serve((_req, res) => {
      res.writeHead(200, SSE);
      res.write(sseChunk('one real event'));
      written = flood(res, `data: ${'y'.repeat(1_000)}\n`);
    });
    const { error, chunks } = await errorOf(url);
    expect(error.message).toMatch(/^model "m": the server sent more than 8 MiB without ending an event, after 1 chunk:/);
    expect(chunks).toEqual([{ type: 'text-delta', text: 'one real event' }]);
    expect(await written).toBeLessThan(40 * 1024 * 1024);
  });
});
