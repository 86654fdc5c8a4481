import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createGate } from '../../support/deferred.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();

/** Long enough that a body read before its slot would still be held when the test looks. */
const BODY_TIMEOUT_MS = 120_000;

/**
 * A JSON-RPC request takes a run slot (`maxRuns`) before its body is read, as `runsHandler`'s
 * starts and `agUiHandler`'s requests do: a flood of slow bodies is refused `429` at once,
 * with its connection closed, instead of each holding memory and a socket for `bodyTimeoutMs`.
 */
describe('a2aHandler: a request takes its slot before its body is read', () => {
  it('with every slot held by slow bodies, one more is refused 429 (JSON-RPC error, Retry-After, connection closed) before its body ends', async () => {
    const { url } = await a2a.serve({ main: () => ({ text: 'done' }) }, { maxRuns: 2, bodyTimeoutMs: BODY_TIMEOUT_MS });
    const slow = [trickle(url), trickle(url)];
    await vi.waitFor(() => expect(slow.every((s) => s.sent)).toBe(true));
    const third = trickle(url);
    // Before the mend it was read like the others, and answered only when its body timed out.
    const refused = await answerOf(third);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('maxRuns') } });
    // A client that leaves gives its slot back: a whole request is served again.
    slow[0]!.req.destroy();
    await vi.waitFor(async () => expect((await getTask(url, 'nobody')).status).toBe(200), { timeout: 10_000 });
    slow[1]!.req.destroy();
  });

  it('while runs hold every slot, their tasks can still be read and cancelled (on lent slots, as many as run); one more body is refused', async () => {
    const gate = createGate();
    const { engine, fixture, url } = await a2a.serve({ main: async () => (await gate.promise, { text: 'late' }) }, { maxRuns: 1, bodyTimeoutMs: BODY_TIMEOUT_MS });
    const sent = await rpc(url, 'message/send', { configuration: { blocking: false }, message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    const taskId = (sent.json as { result: { id: string } }).result.id;
    await fixture.server.waitForRequests(1, 15_000);

    // The one lent slot is held by a slow body: another is refused before it is read.
    const slow = trickle(url);
    await vi.waitFor(() => expect(slow.sent).toBe(true));
    expect((await answerOf(trickle(url))).status).toBe(429);
    slow.req.destroy();

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

interface Trickle {
  readonly req: ClientRequest;
  readonly answer: Promise<IncomingMessage>;
  /** Whether the headers and the first bytes of the body were written. */
  sent: boolean;
}

/** A request whose body starts and never ends (a client sending it a byte at a time). */
function trickle(url: string): Trickle {
  const req = request(`${url}/a2a`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': '100000' } });
  const answer = new Promise<IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
  answer.catch(() => undefined); // destroyed by the test
  const trickling: Trickle = { req, answer, sent: false };
  req.write('{"jsonrpc":"2.0","id":1,', () => (trickling.sent = true));
  return trickling;
}

/** The answer to a request whose body never ended: it must come without it. */
async function answerOf(t: Trickle): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const res = await t.answer;
  let body = '';
  for await (const chunk of res) body += String(chunk);
  t.req.destroy();
  return { status: res.statusCode!, headers: res.headers, body };
}

async function rpc(url: string, method: string, params: object): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return { status: res.status, json: await res.json() };
}

function getTask(url: string, id: string): Promise<{ status: number; json: unknown }> {
  return rpc(url, 'tasks/get', { id });
}
