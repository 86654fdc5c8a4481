/**
 * The SSE format ends a line with `\r\n`, `\n` or a bare `\r`. The SDK's reader splits at `\n`
 * only: a remote ending its lines with `\r` seemed to send one endless line, and its task
 * "ended its stream without a final state". Its event stream is now read with every ending.
 */
import { parseSseStream } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { MAX_SSE_LINE_BYTES, sseLines } from '../../../src/delegation/a2a/sse-lines.js';
import { cpuTimeMs } from '../../support/cpu-time.js';
import { artifact, status, task } from './wire-remote.js';
import { wireRunsPerTest } from './wire-runs.js';

const { childOf } = wireRunsPerTest();

const frame = (id: number, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result });

/** Resolves after `ms`: the two writes around it reach the client as two network reads. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a remote A2A agent whose event stream ends its lines with \\r', () => {
  it('lines ended by a bare \\r: its updates are read, the task completes with its answer', async () => {
    const child = await childOf((_send, res, id) => {
      for (const update of [task('working'), artifact('all '), artifact('read', true), status('completed')]) res.write(`data: ${frame(id, update)}\r\r`);
      res.end();
    });
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'all read' });
  });

  it('a \\r\\n split between two writes is one line ending, not two (a data field of two lines stays one event)', async () => {
    const child = await childOf(async (_send, res, id) => {
      // One event whose JSON spans two data lines: read as two line endings, the first line alone would be an event of broken JSON.
      const json = frame(id, task('working'));
      const cut = json.indexOf(',') + 1;
      res.write(`data: ${json.slice(0, cut)}\r`);
      await pause(50);
      res.write(`\ndata: ${json.slice(cut)}\r\n\r\n`);
      res.write(`data: ${frame(id, artifact('whole'))}\r\r`);
      res.write(`data: ${frame(id, status('completed'))}\n\n`);
      res.end();
    });
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'whole' });
  });
});

/** The chunks `pieces` become through {@link sseLines}. */
async function chunksOf(pieces: readonly (string | Uint8Array)[]): Promise<Uint8Array[]> {
  const bytes = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? new TextEncoder().encode(piece) : piece);
      controller.close();
    },
  });
  const out: Uint8Array[] = [];
  for await (const chunk of bytes.pipeThrough(sseLines())) out.push(chunk);
  return out;
}

/** `pieces` through {@link sseLines}, as text. */
async function throughPieces(pieces: readonly string[]): Promise<string> {
  return Buffer.concat(await chunksOf(pieces)).toString('utf8');
}

describe('sseLines', () => {
  const text = 'data: a\r\ndata: é\r\rdata: b\n\n:c\r\r\n\r';
  const expected = 'data: a\ndata: é\n\ndata: b\n\n:c\n\n\n';

  it('makes \\r\\n, \\n and \\r each one \\n, however the text is cut into two or three pieces', async () => {
    expect(await throughPieces([text])).toBe(expected);
    for (let i = 0; i <= text.length; i++) {
      expect(await throughPieces([text.slice(0, i), text.slice(i)])).toBe(expected);
      for (let j = i; j <= text.length; j++) expect(await throughPieces([text.slice(0, i), text.slice(i, j), text.slice(j)])).toBe(expected);
    }
  });

  it('passes on whole lines only, the last part let out at the end; a \\r held at the end of a chunk across empty chunks', async () => {
    const chunks = (await chunksOf(['da', 'ta: x', '\nda', 'ta', ': y\n\ntail'])).map((c) => Buffer.from(c).toString('utf8'));
    expect(chunks).toEqual(['data: x\n', 'data: y\n\n', 'tail']);
    expect(await throughPieces(['data: x\r', '', '\n', '\r'])).toBe('data: x\n\n');
  });

  it("a 3 MB line dripped in 1 KB chunks is read by the SDK's reader in linear time", async () => {
    const line = `data: ${'x'.repeat(3_000_000)}\n\n`;
    const pieces = Array.from({ length: Math.ceil(line.length / 1024) }, (_, i) => line.slice(i * 1024, (i + 1) * 1024));
    // Its reader searched the whole unfinished line again at each chunk: about 20 s of CPU.
    const budgetMs = 3_000;
    const started = cpuTimeMs(); // CPU time: a busy machine stretches the wall clock, not this
    let fed = 0;
    const bytes = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (fed === pieces.length || cpuTimeMs() - started > budgetMs) return controller.close();
        controller.enqueue(new TextEncoder().encode(pieces[fed++]!));
      },
    });
    const events: string[] = [];
    for await (const event of parseSseStream(new Response(bytes.pipeThrough(sseLines())))) events.push(event.data);
    expect(fed).toBe(pieces.length);
    expect(events.map((data) => data.length)).toEqual([3_000_000]);
  });

  it('a line over MAX_SSE_LINE_BYTES without an end fails the stream, naming the limit', async () => {
    const piece = new Uint8Array(1 << 20).fill(0x78);
    await expect(chunksOf(Array.from({ length: 5 }, () => piece))).rejects.toThrow(`its event stream sent a line that exceeded the maximum allowed size of ${MAX_SSE_LINE_BYTES} bytes`);
    expect((await chunksOf(Array.from({ length: 4 }, () => piece))).reduce((n, c) => n + c.length, 0)).toBe(4 << 20);
  });
});
