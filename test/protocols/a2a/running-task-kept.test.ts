import { describe, expect, it, vi } from 'vitest';
import { createGate } from '../../support/deferred.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';
import type { Turn } from '../../support/agent-turns.js';

const a2a = a2aServerPerTest();

/**
 * The task store keeps at most `maxTasks` tasks, but never forgets one still running: a quiet
 * task (waiting on its model, or on an approval for hours) must stay readable and cancellable
 * while other clients' tasks come and go. Finished ones make room, oldest first; when running
 * tasks fill it, a new message is refused before its run starts.
 */
describe('a2aHandler: the task store never forgets a running task', () => {
  it('a quiet running task outlives newer finished ones: tasks/get, tasks/resubscribe and tasks/cancel still find it; the oldest finished one goes', async () => {
    const gate = createGate();
    const { engine, fixture, url } = await a2a.serve({ main: async (turn: Turn) => (turn.prompt === 'wait' ? (await gate.promise, { text: 'late' }) : { text: 'quick' }) }, { maxTasks: 2 });
    const quiet = await send(url, 'wait', false);
    await fixture.server.waitForRequests(1, 15_000);
    const first = await send(url, 'go', true);
    const second = await send(url, 'go', true);

    // Before the mend the quiet task, least recently written, was the one forgotten.
    expect(await rpc(url, 'tasks/get', { id: quiet })).toMatchObject({ result: { id: quiet, status: { state: 'working' } } });
    expect(await rpc(url, 'tasks/get', { id: first })).toMatchObject({ error: { code: -32001 } });
    expect(await rpc(url, 'tasks/get', { id: second })).toMatchObject({ result: { id: second, status: { state: 'completed' } } });
    const subscribed = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: envelope('tasks/resubscribe', { id: quiet }) });
    const reader = subscribed.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(quiet);
    await reader.cancel();
    expect(await rpc(url, 'tasks/cancel', { id: quiet })).toMatchObject({ result: { id: quiet, status: { state: 'canceled' } } });
    await vi.waitFor(() => expect(engine.runs.list().map((r) => r.state).sort()).toEqual(['cancelled', 'done', 'done']), { timeout: 10_000 });
    gate.open();
  });

  it('when running tasks fill the store, a new message is refused 429 saying so, and starts no run; once one ends, messages run again', async () => {
    const gate = createGate();
    const { engine, fixture, url } = await a2a.serve({ main: async (turn: Turn) => (turn.prompt === 'wait' ? (await gate.promise, { text: 'late' }) : { text: 'quick' }) }, { maxTasks: 2 });
    const running = [await send(url, 'wait', false), await send(url, 'wait', false)];
    await fixture.server.waitForRequests(2, 15_000);

    const refused = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: envelope('message/send', message('go')) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('maxTasks') } });
    expect(engine.runs.list()).toHaveLength(2);
    for (const id of running) expect(await rpc(url, 'tasks/get', { id })).toMatchObject({ result: { status: { state: 'working' } } });

    await rpc(url, 'tasks/cancel', { id: running[0] });
    const next = await send(url, 'go', true);
    expect(await rpc(url, 'tasks/get', { id: next })).toMatchObject({ result: { status: { state: 'completed' } } });
    expect(await rpc(url, 'tasks/get', { id: running[1] })).toMatchObject({ result: { status: { state: 'working' } } });
    gate.open();
  });
});

function message(text: string): object {
  return { message: { kind: 'message', messageId: `m-${Math.random()}`, role: 'user', parts: [{ kind: 'text', text }] } };
}

function envelope(method: string, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

/** Sends a message in a new conversation; returns its task id. */
async function send(url: string, text: string, blocking: boolean): Promise<string> {
  const answer = (await rpc(url, 'message/send', { configuration: { blocking }, ...message(text) })) as { result?: { id: string } };
  expect(answer).toHaveProperty('result.id');
  return answer.result!.id;
}

async function rpc(url: string, method: string, params: object): Promise<unknown> {
  const res = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: envelope(method, params) });
  return res.json();
}
