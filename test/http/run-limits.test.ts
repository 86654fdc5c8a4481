import net from 'node:net';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/closed-after-each.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

const open = closedAfterEach<{ served: RunsServer; fake: FakeOpenAIServer }>(['served', 'fake']);

const MIB = 1024 * 1024;
/** A prompt just under the default body cap of 1 MiB. */
const BIG_PROMPT = `Summarise: ${'x'.repeat(MIB - 100)}`;
/** Its request body, made once (the flood's cost is the server's, not the test's). */
const BIG_BODY = JSON.stringify({ prompt: BIG_PROMPT });

/** POSTs `count` big prompts, `parallel` at a time; resolves each answer's status and Retry-After. */
async function flood(url: string, count: number, parallel: number): Promise<Array<{ status: number; retryAfter: string | null }>> {
  const limit = pLimit(parallel);
  return Promise.all(
    Array.from({ length: count }, () =>
      limit(async () => {
        const answer = await postJson(`${url}/runs`, BIG_BODY, { raw: true });
        return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
      }),
    ),
  );
}

describe('runsHandler: what one client can make the server hold', () => {
  it('caps the runs running at once (429 with Retry-After), keeps answering, and frees a slot when a run ends', async () => {
    open.fake = await FakeOpenAIServer.start({ handler: () => ({ hang: true }) });
    open.served = await serveRuns({ model: openAIModelFor(open.fake) }, { maxRuns: 4 });
    const answers = await flood(open.served.url, 300, 25);
    const counts = answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 201: 4, 429: 296 });
    expect(new Set(answers.filter((a) => a.status === 429).map((a) => a.retryAfter))).toEqual(new Set(['5']));
    const running = open.served.engine.runs.list();
    expect(running.map((r) => r.state)).toEqual(Array(4).fill('running'));
    // still answering, and a run that ends gives its slot back
    expect((await fetch(`${open.served.url}/runs/${running[0]!.runId}`)).status).toBe(200);
    expect((await postJson(`${open.served.url}/runs`, { prompt: 'one more' })).status).toBe(429);
    expect((await fetch(`${open.served.url}/runs/${running[0]!.runId}`, { method: 'DELETE' })).status).toBe(202);
    await expect.poll(async () => (await postJson(`${open.served!.url}/runs`, { prompt: 'one more' })).status).toBe(201);
  }, 90_000);

  it('keeps finished runs within maxRetainedRunBytes however many big prompts come', async () => {
    open.fake = await FakeOpenAIServer.start({ handler: () => ({ text: 'done' }) });
    const bound = 8 * MIB;
    open.served = await serveRuns({ model: openAIModelFor(open.fake), maxRetainedRunBytes: bound }, { maxRuns: 4 });
    let peak = 0;
    let started = 0;
    const limit = pLimit(4);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        limit(async () => {
          for (;;) {
            const answer = await postJson(`${open.served!.url}/runs`, BIG_BODY, { raw: true });
            if (answer.status === 201) {
              const { runId } = answer.body as { runId: string };
              // ended (or, once ended, already evicted to make room for newer runs)
              await expect.poll(() => open.served!.engine.runs.get(runId)?.state ?? 'evicted', { timeout: 20_000 }).not.toBe('running');
              started += 1;
              peak = Math.max(peak, open.served!.engine.runs.retainedBytes);
              return;
            }
            expect(answer.status).toBe(429);
          }
        }),
      ),
    );
    expect(started).toBe(40);
    // each run's log holds its 1 MiB prompt (about 2 MiB as counted): the oldest went
    const retained = open.served.engine.runs.retainedBytes;
    expect(retained).toBeGreaterThan(2 * MIB);
    expect(retained).toBeLessThanOrEqual(bound);
    // at most the bound of finished runs plus the 4 running ones, each about 2 MiB
    expect(peak).toBeLessThanOrEqual(bound + 4 * 2.2 * MIB);
    expect(open.served.engine.runs.list().length).toBeLessThan(8);
  }, 90_000);

  it('cuts off a body that trickles in: 408 and the connection closed', async () => {
    open.fake = await FakeOpenAIServer.start({ handler: () => ({ text: 'done' }) });
    open.served = await serveRuns({ model: openAIModelFor(open.fake) }, { bodyTimeoutMs: 300 });
    const { port } = new URL(open.served.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST /runs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"prompt":"`);
    // a byte every 50 ms, as the attack sends one every 500 ms: 1000 bytes would take 50 s
    const drip = setInterval(() => socket.writable && socket.write('x'), 50);
    await closed;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(received).toContain('the request body did not arrive within 300 ms');
    expect(open.served.engine.runs.list()).toEqual([]);
  });
});
