import { request, type IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createGate } from '../../support/deferred.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const TOKEN = 'a2a-test-token-0123456789';

const a2a = a2aServerPerTest();

/**
 * A2A tasks outlive their streams (docs/protocols.md, "Cancel"): a client that drops its
 * message stream leaves its run going, and must be able to read the task's end with tasks/get.
 */
describe('a2aHandler: a task outlives the stream that started it', () => {
  it.each([
    ['A2A 1.0', 'SendStreamingMessage', 'GetTask', 'TASK_STATE_COMPLETED', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } }],
    ['A2A 0.3', 'message/stream', 'tasks/get', 'completed', { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }],
  ])('%s: a client that drops its stream mid-run reads the task completed, with its answer, once the run ends', async (_name, method, getMethod, completed, params) => {
    const gate = createGate();
    const { fixture, engine, server, url: base } = await a2a.serve(
      { main: async () => (await gate.promise, { text: 'the answer' }) },
      { authorize: (req) => req.headers.authorization === `Bearer ${TOKEN}` },
    );
    const stream = await open(base, method, params);
    const first = String(await new Promise((resolve) => stream.once('data', resolve)));
    const taskId = /"id":"([^"]+)"/.exec(first)![1]!;
    await fixture.server.waitForRequests(1, 15_000);
    stream.destroy();
    // the server has seen the client go before the run goes on
    await vi.waitFor(async () => expect(await new Promise((resolve) => server.getConnections((_e, n) => resolve(n)))).toBe(0));
    gate.open();
    await vi.waitFor(() => expect(engine.runs.list().map((r) => r.state)).toEqual(['done']), { timeout: 10_000 });
    // Before the mend the task stayed `working` for ever: the stream that stores its updates was closed with its client.
    await vi.waitFor(async () => {
      const answer = (await (await post(base, getMethod, { id: taskId })).json()) as { result?: { status?: { state?: string } } };
      expect(answer.result?.status?.state).toBe(completed);
      expect(JSON.stringify(answer.result)).toContain('the answer');
    }, { timeout: 5_000 });
  });
});

/** Opens a stream with node:http, so the test can drop its connection. */
function open(base: string, method: string, params: object): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    request(`${base}/a2a`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }, resolve).on('error', reject).end(body);
  });
}

/** One JSON-RPC request, its answer read whole. */
function post(base: string, method: string, params: object): Promise<Response> {
  return fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}
