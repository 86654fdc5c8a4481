import { describe, expect, it, vi } from 'vitest';
import { RunSlots } from '../../../src/http/run-slots.js';
import { runsHandler } from '../../../src/http/runs-handler.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';
import { createGate } from '../../support/deferred.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';
import { answerOf, slowBody } from '../../support/slow-body.js';

const a2a = a2aServerPerTest();
// Registered after the A2A server: closed before it, and before the engine they share.
const runsServer = httpServerPerTest();

/**
 * `rxharness serve` gives every handler one `RunSlots`. Runs started through another handler
 * (`POST /runs`) may hold all of them while the A2A handler runs nothing, so it has no slot to
 * lend: reading a task it stored (a finished one) needs no run, and must not be refused for
 * want of one. Such reads are bounded by the handler's own `maxControlRequests` instead.
 */
describe('a2aHandler: reading a stored task while runs of other handlers hold every shared slot', () => {
  it('tasks/get of a finished task is answered; a new message is 429; the reads are bounded by maxControlRequests', async () => {
    const gate = createGate();
    let calls = 0;
    // The first run (A2A's) answers at once; the other handler's runs wait until the test ends.
    const main = async (): Promise<{ text: string }> => (++calls === 1 ? { text: 'done' } : (await gate.promise, { text: 'late' }));
    const slots = new RunSlots(2);
    const { engine, fixture, url } = await a2a.serve({ main }, { maxRuns: slots, maxControlRequests: 1, bodyTimeoutMs: 120_000 });
    try {
      const sent = await rpc(url, 'message/send', { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
      const taskId = (sent.json as { result: { id: string; status: { state: string } } }).result.id;
      expect(sent.json).toMatchObject({ result: { status: { state: 'completed' } } });
      await vi.waitFor(() => expect(slots.taken).toBe(0), { timeout: 10_000 });

      // Another handler sharing the slots starts runs until every slot is held.
      const runsUrl = await runsServer.serve(runsHandler(engine, { maxRuns: slots }));
      for (const prompt of ['one', 'two']) expect((await post(`${runsUrl}/runs`, { prompt })).status).toBe(201);
      expect((await post(`${runsUrl}/runs`, { prompt: 'three' })).status).toBe(429);
      await fixture.server.waitForRequests(3, 15_000);

      // Before the mend: 429, as the A2A handler had no run of its own to lend a slot for.
      const read = await rpc(url, 'tasks/get', { id: taskId });
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ result: { id: taskId, status: { state: 'completed' } } });
      // A message is read too, but needs a run slot to start: refused, and it gives the read slot back.
      const message = await rpc(url, 'message/send', { message: { kind: 'message', messageId: 'm2', role: 'user', parts: [{ kind: 'text', text: 'more' }] } });
      expect(message.status).toBe(429);
      expect(message.json).toMatchObject({ error: { code: -32000, message: expect.stringContaining('maxRuns') } });
      expect((await rpc(url, 'tasks/get', { id: taskId })).status).toBe(200);

      // Bounded: with the one control slot held by a body that never ends, a read is refused at once.
      const slow = slowBody(`${url}/a2a`);
      await vi.waitFor(() => expect(slow.sent).toBe(true));
      const refused = await answerOf(slowBody(`${url}/a2a`));
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body)).toMatchObject({ id: null, error: { code: -32000, message: expect.stringContaining('maxControlRequests') } });
      // Its client gone, the slot is given back: the task is read again.
      slow.req.destroy();
      await vi.waitFor(async () => expect((await rpc(url, 'tasks/get', { id: taskId })).status).toBe(200), { timeout: 10_000 });
      expect(slots.taken).toBe(2); // the other handler's runs still hold theirs; no read kept one
    } finally {
      gate.open();
    }
  });
});

function post(url: string, body: object): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function rpc(url: string, method: string, params: object): Promise<{ status: number; json: unknown }> {
  const res = await post(`${url}/a2a`, { jsonrpc: '2.0', id: 1, method, params });
  return { status: res.status, json: await res.json() };
}
