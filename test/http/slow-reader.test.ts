import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { oneTo, postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const MIB = 1024 * 1024;

/** The most bytes any server-side socket holds in its own buffer (past what the kernel took). */
function serverBacklog(server: RunsServer): number {
  return Math.max(0, ...[...server.sockets].map((s) => s.writableLength));
}

describe('runsHandler: a slow reader', () => {
  it('costs the server one socket buffer, not the run: it detaches while the socket is full and resumes on drain', { timeout: 30_000 }, async () => {
    // about 20 MiB of events, far more than the loopback socket buffers hold
    const model = new ScriptedModel([{ text: 'x'.repeat(6 * MIB), chunkSize: 1024 }]);
    served = await serveRuns({ model });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    await served.engine.runs.attach(runId).forEach(() => undefined);
    const runsServer = served;

    const seqs: number[] = [];
    let buffer = '';
    let ended = false;
    let maxBacklog = 0;
    let largestFrame = 0;
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${served!.url}/runs/${runId}/events`, (response) => {
        response.setEncoding('utf8');
        response.pause(); // reads nothing for a while: the server's writes back up
        const sampler = setInterval(() => (maxBacklog = Math.max(maxBacklog, serverBacklog(runsServer))), 5);
        setTimeout(() => {
          response.on('data', (chunk: string) => {
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              largestFrame = Math.max(largestFrame, Buffer.byteLength(block));
              total += Buffer.byteLength(block);
              if (block.startsWith('event: end')) ended = true;
              else if (block.startsWith('id: ')) seqs.push(Number(block.slice(4, block.indexOf('\n'))));
            }
          });
          response.resume();
        }, 400);
        response.on('end', () => {
          clearInterval(sampler);
          resolve();
        });
      });
      request.on('error', reject);
    });
    expect(ended).toBe(true);
    expect(seqs).toEqual(oneTo(seqs.length));
    expect(seqs.length).toBeGreaterThan(6000);
    // One socket buffer (16 KiB) and the frame that filled it; writing the replay at once would
    // hold all of it. (The largest frame is the RunEnd, whose text is the whole 6 MiB answer.)
    expect(total).toBeGreaterThan(3 * largestFrame);
    expect(maxBacklog).toBeLessThan(largestFrame + 64 * 1024);
  });

  it('a reader that stops reading is never cut and never stops the run; it catches up when it reads again', { timeout: 30_000 }, async () => {
    const model = new ScriptedModel(() => ({ text: 'y'.repeat(2 * MIB), chunkSize: 2048, chunkDelayMs: 1 }));
    served = await serveRuns({ model });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    let response: http.IncomingMessage | undefined;
    const chunks: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      http.get(`${served!.url}/runs/${runId}/events`, (r) => {
        response = r;
        r.setEncoding('utf8');
        r.pause();
        r.on('end', resolve);
      }).on('error', reject);
    });
    const finished = await served.engine.runs.attach(runId).forEach(() => undefined).then(() => 'done');
    expect(finished).toBe('done'); // the run finished while its reader was stalled
    expect(served.engine.runs.get(runId)?.state).toBe('done');
    response!.on('data', (chunk: string) => chunks.push(chunk));
    response!.resume();
    await done;
    const text = chunks.join('');
    const seqs = [...text.matchAll(/^id: (\d+)\ndata: /gm)].map((m) => Number(m[1]));
    expect(seqs).toEqual(oneTo(seqs.length));
    expect(text.endsWith(`event: end\ndata: {}\nid: ${seqs.length + 1}\n\n`)).toBe(true);
  });
});
