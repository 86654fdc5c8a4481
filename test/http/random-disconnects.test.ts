import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { oneTo, postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A small seeded generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Connection {
  /** The complete messages received, in order. */
  readonly events: SequencedEvent[];
  /** Whether `event: end` arrived. */
  readonly ended: boolean;
}

/**
 * One connection that resumes after `after` and is cut once `cutAfterBytes` bytes arrived
 * (anywhere: between messages or in the middle of one), or reads to the end when it is
 * undefined. A message cut in half is lost, as it would be for any client.
 */
function connectOnce(url: string, after: number, cutAfterBytes: number | undefined): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const events: SequencedEvent[] = [];
    let ended = false;
    let buffer = '';
    let bytes = 0;
    const request = http.get(url, { headers: { 'last-event-id': String(after) } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const room = cutAfterBytes === undefined ? chunk.length : Math.max(0, cutAfterBytes - bytes);
        const taken = chunk.slice(0, room);
        bytes += taken.length;
        buffer += taken;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: end\n')) ended = true;
          const data = /^data: (.*)$/m.exec(block);
          if (data && !block.startsWith('event:')) events.push(JSON.parse(data[1]!) as SequencedEvent);
        }
        if (cutAfterBytes !== undefined && bytes >= cutAfterBytes) request.destroy();
      });
      response.on('close', () => resolve({ events, ended }));
      response.on('error', () => undefined);
    });
    request.on('error', () => resolve({ events, ended }));
  });
}

describe('runsHandler: 1,000 random disconnects and resumes of one run', () => {
  it('the client sees every event exactly once, in order, and the model runs once', { timeout: 60_000 }, async () => {
    const rand = random(0x5eed);
    // about 2,500 events, one every 2 ms: most cuts land while the run is live
    const model = new ScriptedModel(() => ({ text: 'abcdefghij'.repeat(250), chunkSize: 1, chunkDelayMs: 2 }));
    served = await serveRuns({ model });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const url = `${served.url}/runs/${runId}/events`;
    const seen: SequencedEvent[] = [];
    let disconnects = 0;
    let liveCuts = 0;
    for (;;) {
      const cut = disconnects < 1000 ? (rand() < 0.95 ? Math.floor(rand() * 600) : Math.floor(rand() * 4000)) : undefined; // 0: right after the headers
      const live = (await served.engine.runs.get(runId))?.state === 'running';
      const connection = await connectOnce(url, seen.at(-1)?.seq ?? 0, cut);
      seen.push(...connection.events);
      if (connection.ended) break;
      disconnects += 1;
      if (live) liveCuts += 1;
    }
    expect(disconnects).toBeGreaterThanOrEqual(1000);
    expect(liveCuts).toBeGreaterThan(300);
    expect(seen.map((e) => e.seq)).toEqual(oneTo(seen.length));
    expect(seen.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false });
    const text = seen.flatMap((e) => (e.event.type === 'ReasonDelta' ? [e.event.text] : [])).join('');
    expect(text).toBe('abcdefghij'.repeat(250));
    expect(model.requests).toHaveLength(1);
    expect(served.engine.runs.list()).toHaveLength(1);
  });
});
