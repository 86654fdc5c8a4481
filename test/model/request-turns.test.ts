import { createServer, connect, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_STARTS_PER_TURN, requestTurn } from '../../src/model/request-turns.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { modelAt, sseReply } from './node-http-support.js';

// A burst of model request starts must not hold the event loop: they start a few per turn,
// in the order asked, with the sockets read between two turns (docs/performance.md §11).

const K = REQUEST_STARTS_PER_TURN;
const http = httpServerPerTest();
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Asks `n` turns at once; resolves with the order in which they were granted. */
async function grantOrder(n: number): Promise<number[]> {
  const order: number[] = [];
  await Promise.all(Array.from({ length: n }, (_, i) => requestTurn().then(() => order.push(i))));
  return order;
}

/** A connected pair of Unix-domain sockets: what one writes is in the other's buffer once `write` returns. */
async function socketPair(): Promise<{ writer: Socket; reader: Socket }> {
  const dir = mkdtempSync(join(tmpdir(), 'rxh-turns-'));
  const path = join(dir, 's');
  const server: Server = createServer();
  server.listen(path);
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const writer = connect(path);
  await once(writer, 'connect');
  const [reader] = await accepted;
  closers.push(() => {
    writer.destroy();
    reader.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { writer, reader };
}

describe('requestTurn', () => {
  it('grants turns in the order they were asked, each once, never in the turn that asked', async () => {
    let asking = true;
    const grantedWhileAsking: number[] = [];
    const order: number[] = [];
    const all = Array.from({ length: 3 * K + 1 }, (_, i) =>
      requestTurn().then(() => {
        if (asking) grantedWhileAsking.push(i);
        order.push(i);
      }),
    );
    // Even the microtasks of the asking turn pass before the first grant.
    await Promise.resolve();
    await Promise.resolve();
    asking = false;
    await Promise.all(all);
    expect(grantedWhileAsking).toEqual([]);
    expect(order).toEqual(Array.from({ length: 3 * K + 1 }, (_, i) => i));
  });

  it(`starts at most ${K} in a turn, and reads the sockets between two turns`, async () => {
    const { writer, reader } = await socketPair();
    let reads = 0;
    reader.on('data', () => reads++);
    // Each grant writes a byte: the turn after it can only see it read if the loop polled between.
    const readsAtGrant: number[] = [];
    await Promise.all(
      Array.from({ length: 4 * K }, () =>
        requestTurn().then(() => {
          readsAtGrant.push(reads);
          writer.write('x');
        }),
      ),
    );
    const turns = Array.from({ length: 4 }, (_, t) => readsAtGrant.slice(t * K, (t + 1) * K));
    // Within a turn nothing was read; every later turn saw the bytes of the turns before it.
    for (const turn of turns) expect(new Set(turn).size).toBe(1);
    expect(turns[0]![0]).toBe(0);
    for (let t = 1; t < turns.length; t++) expect(turns[t]![0]).toBeGreaterThan(turns[t - 1]![0]!);
  });

  it('10,000 asked at once all start, in order, and leave nothing scheduled', async () => {
    const order = await grantOrder(10_000);
    expect(order).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    // The queue drained and stopped: a turn asked now is scheduled afresh, ahead of an
    // immediate queued after it (a queue left scheduled would grant it late, or never).
    const next: string[] = [];
    const turn = requestTurn().then(() => next.push('turn'));
    const marker = new Promise<void>((done) => setImmediate(() => done(void next.push('marker'))));
    await Promise.all([turn, marker]);
    expect(next).toEqual(['turn', 'marker']);
  });

  it('10,000 cancelled while they waited take no place: a live request behind them starts in the first turn', async () => {
    const order: string[] = [];
    const gone = Array.from({ length: 10_000 }, () => requestTurn(() => true));
    const live = requestTurn(() => false).then(() => order.push('live'));
    const nextTurn = new Promise<void>((done) => setImmediate(() => done(void order.push('next turn'))));
    // The cancelled ones are let go too (their requests then send nothing).
    await Promise.all([...gone, live, nextTurn]);
    expect(order).toEqual(['live', 'next turn']);
  });

  it('a queue that never drains (each start asks again) still grants every turn in order', async () => {
    const order: number[] = [];
    let next = 0;
    const TOTAL = 5_000;
    await new Promise<void>((done) => {
      const ask = (): void => {
        const i = next++;
        void requestTurn().then(() => {
          order.push(i);
          if (next < TOTAL) ask();
          if (order.length === TOTAL) done();
        });
      };
      for (let i = 0; i < 2 * K; i++) ask();
    });
    expect(order).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
  });
});

describe('model requests waiting for their turn', () => {
  it('a request whose run left while it waited is never sent; every other one is', async () => {
    const asked: string[] = [];
    const url = await http.serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        asked.push((JSON.parse(body) as { messages: Array<{ content: string }> }).messages[0]!.content);
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(['ok']));
      });
    });
    const model = modelAt(url);
    const request = (n: number): ChatRequest => ({ messages: [{ role: 'user', content: `r${n}` }] });
    const kept: Array<Promise<void>> = [];
    // All asked in one turn: the odd ones leave before any of them had its turn.
    for (let n = 0; n < 3 * K; n++) {
      if (n % 2 === 1) model.stream(request(n)).subscribe({ error: () => undefined }).unsubscribe();
      else kept.push(new Promise<void>((done, fail) => model.stream(request(n)).subscribe({ error: fail, complete: done })));
    }
    await Promise.all(kept);
    const even = Array.from({ length: 3 * K }, (_, n) => n).filter((n) => n % 2 === 0);
    expect([...asked].sort()).toEqual(even.map((n) => `r${n}`).sort());
  });
});
