import { describe, expect, it, vi } from 'vitest';
import { createGate } from '../../support/deferred.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';
import { answerOf, slowBody, type SlowBody } from '../../support/slow-body.js';

const a2a = a2aServerPerTest();

/** Long enough that a body read before its slot would still be held when the test looks. */
const BODY_TIMEOUT_MS = 120_000;

/**
 * A JSON-RPC request takes a run slot (`maxRuns`) before its body is read, as `runsHandler`'s
 * starts and `agUiHandler`'s requests do: a flood of slow bodies is refused `429` at once,
 * with its connection closed, instead of each holding memory and a socket for `bodyTimeoutMs`.
 */
describe('a2aHandler: a request takes its slot before its body is read', () => {
  it('with every slot (run and control) held by slow bodies, one more is refused 429 (JSON-RPC error, Retry-After, connection closed) before its body ends', async () => {
    const { url } = await a2a.serve({ main: () => ({ text: 'done' }) }, { maxRuns: 2, maxControlRequests: 1, bodyTimeoutMs: BODY_TIMEOUT_MS });
    const slow = [trickle(url), trickle(url), trickle(url)];
    await vi.waitFor(() => expect(slow.every((s) => s.sent)).toBe(true));
    const fourth = trickle(url);
    // Before the mend it was read like the others, and answered only when its body timed out.
    const refused = await answerOf(fourth);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    const message = expect.stringMatching(/maxRuns.*maxControlRequests/);
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
    // A client that leaves gives its slot back: a whole request is served again.
    slow[0]!.req.destroy();
    await vi.waitFor(async () => expect((await getTask(url, 'nobody')).status).toBe(200), { timeout: 10_000 });
    for (const s of slow) s.req.destroy();
  });

  it('while runs hold every slot, their tasks can still be read and cancelled (on lent slots, as many as run, then control ones); one more body is refused', async () => {
    const gate = createGate();
    const { engine, fixture, url } = await a2a.serve({ main: async () => (await gate.promise, { text: 'late' }) }, { maxRuns: 1, maxControlRequests: 1, bodyTimeoutMs: BODY_TIMEOUT_MS });
    const sent = await rpc(url, 'message/send', { configuration: { blocking: false }, message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    const taskId = (sent.json as { result: { id: string } }).result.id;
    await fixture.server.waitForRequests(1, 15_000);

    // The one lent slot and the one control slot are held by slow bodies: another is refused before it is read.
    const slow = [trickle(url), trickle(url)];
    await vi.waitFor(() => expect(slow.every((s) => s.sent)).toBe(true));
    expect((await answerOf(trickle(url))).status).toBe(429);
    for (const s of slow) s.req.destroy();

    // A new message finds no slot; the running task can still be cancelled.
    await vi.waitFor(async () => expect((await getTask(url, taskId)).status).toBe(200), { timeout: 10_000 });
    const again = await rpc(url, 'message/send', { message: { kind: 'message', messageId: 'm2', role: 'user', parts: [{ kind: 'text', text: 'more' }] } });
    expect(again.status).toBe(429);
    const cancelled = await rpc(url, 'tasks/cancel', { id: taskId });
    expect(cancelled.json).toMatchObject({ result: { id: taskId, status: { state: 'canceled' } } });
    await vi.waitFor(() => expect(engine.runs.list().map((r) => r.state)).toEqual(['cancelled']), { timeout: 10_000 });
    gate.open();
  });
});

/** A JSON-RPC request whose body starts and never ends. */
function trickle(url: string): SlowBody {
  return slowBody(`${url}/a2a`);
}

async function rpc(url: string, method: string, params: object): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return { status: res.status, json: await res.json() };
}

function getTask(url: string, id: string): Promise<{ status: number; json: unknown }> {
  return rpc(url, 'tasks/get', { id });
}
