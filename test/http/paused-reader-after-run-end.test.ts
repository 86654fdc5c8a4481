/**
 * `GET /runs/:id/events` through `runsHandler`: a client that stops reading while the stream
 * waits for its socket to drain, with the run over, is cut 30 s later (the handler tells the
 * stream that the run has ended); its socket is not held for ever. Real engine and sockets;
 * fake `setTimeout` once the run is over.
 */
import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await served?.close();
  served = undefined;
});

describe('runsHandler: a client that stopped reading, waited for when its run is over', () => {
  it('has its connection destroyed 30 s on, not before', { timeout: 30_000 }, async () => {
    // far more events than the loopback socket buffers hold
    served = await serveRuns({ model: new ScriptedModel([{ text: 'x'.repeat(4 * 1024 * 1024), chunkSize: 1024 }]) });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    await served.engine.runs.attach(runId).forEach(() => undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = net.connect(Number(new URL(served.url).port), '127.0.0.1');
    client.pause();
    client.on('error', () => undefined);
    client.write(`GET /runs/${runId}/events HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const backedUp = (): net.Socket | undefined => [...served!.sockets].find((s) => s.writableLength > 0);
    while (backedUp() === undefined) await nextTurn();
    const socket = backedUp()!;
    vi.advanceTimersByTime(29_999);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
    client.destroy();
  });
});
