import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HarnessEngine } from '../../../src/engine/harness-engine.js';
import { a2aHandler } from '../../../src/protocols/a2a/a2a-handler.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { multitaskReply, steps } from '../../support/delegation-script.js';
import { runA2AClient, type A2AClientProcess, type ClientLine } from './run-a2a-client.js';

const TOKEN = 'a2a-test-token-0123456789';

let fixture: DelegationFixture | undefined;
let engine: HarnessEngine | undefined;
let server: Server | undefined;
let client: A2AClientProcess | undefined;
afterEach(async () => {
  client?.child.kill('SIGKILL');
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await engine?.close();
  await fixture?.close();
  fixture = engine = server = client = undefined;
});

/** Serves a fresh engine's A2A routes behind the token; resolves with the base URL. */
async function serveA2A(routes: Parameters<typeof startDelegationFixture>[0], maxRuns?: number): Promise<string> {
  fixture = await startDelegationFixture(routes);
  engine = fixture.engine();
  server = createServer(a2aHandler(engine, { authorize: (req) => req.headers.authorization === `Bearer ${TOKEN}`, ...(maxRuns ? { maxRuns } : {}) }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const SURVEY = multitaskReply([
  [1, 'explore', 'List the folders', 'Map the layout'],
  [2, 'explore', 'Find the Markdown files', 'Find the docs'],
  [3, 'general', 'Count the TODO lines', 'Count TODO comments'],
]);

const subtaskMeta = (line: ClientLine) => (line.meta as { rxharness?: { description: string; state: string; agentName: string } } | undefined)?.rxharness;

describe('a2aHandler, driven by @a2a-js/sdk\'s client in another process', () => {
  it.each([
    ['A2A 1.0 (SendStreamingMessage)', [] as string[]],
    ['A2A 0.3 (message/stream)', ['--legacy']],
  ])('%s: a multitask of three shows its three sub-agents, each named by its task\'s description, then the answer', async (_name, flags) => {
    const base = await serveA2A({ main: steps(SURVEY), '*': (turn) => ({ text: `done: ${turn.prompt}` }) });
    const card = await runA2AClient([base, 'card'], TOKEN).done;
    expect(card[0]).toMatchObject({ kind: 'card', skills: expect.arrayContaining([expect.objectContaining({ name: 'explore' }), expect.objectContaining({ name: 'general' })]) });

    const lines = await runA2AClient([base, 'stream', 'Survey this project', ...flags], TOKEN).done;
    expect(lines[0]).toEqual({ kind: 'client', protocolVersion: flags.length ? '0.3' : '1.0' });
    expect(lines[1]).toMatchObject({ kind: 'task-start', state: 'TASK_STATE_WORKING', contextId: expect.stringMatching(/^ses_/) });
    const started = lines.filter((l) => l.kind === 'status' && subtaskMeta(l)?.state === 'started');
    expect(started.map((l) => subtaskMeta(l)!.description).sort()).toEqual(['Count TODO comments', 'Find the docs', 'Map the layout']);
    expect(started.find((l) => subtaskMeta(l)!.description === 'Count TODO comments')).toMatchObject({ text: 'Sub-agent general #3 started: Count TODO comments' });
    const answers = lines.filter((l) => l.kind === 'artifact' && l.name !== 'answer');
    expect(Object.fromEntries(answers.map((l) => [l.name, l.text]))).toEqual({
      'Map the layout': 'done: List the folders',
      'Find the docs': 'done: Find the Markdown files',
      'Count TODO comments': 'done: Count the TODO lines',
    });
    const terminal = lines.filter((l) => l.kind === 'status' && l.state !== 'TASK_STATE_WORKING');
    expect(terminal).toHaveLength(1);
    expect(terminal[0]).toMatchObject({ state: 'TASK_STATE_COMPLETED', text: expect.stringContaining('final: ') });
    expect(lines.at(-1)).toMatchObject({ kind: 'task', state: 'TASK_STATE_COMPLETED', artifacts: expect.arrayContaining([{ name: 'answer', text: terminal[0]!.text }]) });
  });

  it('tasks/cancel cancels the run: its model request is aborted at the server, the task ends canceled once', async () => {
    const base = await serveA2A({ main: () => ({ hang: true }) });
    client = runA2AClient([base, 'stream', 'Wait for ever', '--cancel-on-stdin'], TOKEN);
    await client.waitFor((l) => l.kind === 'task-start');
    await fixture!.server.waitForRequests(1, 15_000);
    client.child.stdin!.write('cancel\n');
    const lines = await client.done;
    expect(lines.find((l) => l.kind === 'cancelled')).toEqual({ kind: 'cancelled', state: 'TASK_STATE_CANCELED' });
    expect(lines.filter((l) => l.kind === 'status')).toEqual([expect.objectContaining({ state: 'TASK_STATE_CANCELED' })]);
    expect(lines.at(-1)).toMatchObject({ kind: 'task', state: 'TASK_STATE_CANCELED' });
    expect(await fixture!.server.waitForClosed(0)).toMatchObject({ aborted: true });
    expect(fixture!.server.inFlight).toBe(0);
  });

  it('answers 401 without the token: the card and the JSON-RPC endpoint', async () => {
    const base = await serveA2A({});
    expect((await runA2AClient([base, 'card']).done)[0]).toEqual({ kind: 'error', message: expect.stringContaining(': 401') });
    const rpc = await fetch(`${base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}' });
    expect(rpc.status).toBe(401);
    expect(fixture!.server.requests).toHaveLength(0);
  });

  it('answers 409 with a JSON-RPC error for a message to a conversation another run is using', async () => {
    const base = await serveA2A({ main: () => ({ hang: true }) });
    const send = (id: number) => sendTo(base, id, 'ses_shared');
    const first = await send(1);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ result: { kind: 'task', contextId: 'ses_shared' } });
    const second = await send(2);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: expect.stringContaining('busy') } });
  });

  it('answers 429 with Retry-After beyond maxRuns running runs, and starts nothing for it', async () => {
    const base = await serveA2A({ main: () => ({ hang: true }) }, 1);
    expect((await sendTo(base, 1, 'ses_one')).status).toBe(200);
    const refused = await sendTo(base, 2, 'ses_two');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32000, message: expect.stringContaining('too many runs') } });
    expect(engine!.runs.list().map((r) => r.sessionId)).toEqual(['ses_one']);
  });

  it('refuses a message to a task that has ended, without starting a run for it', async () => {
    const base = await serveA2A({ main: () => ({ text: 'done' }) });
    const answer = (await (await sendTo(base, 1, 'ses_a', true)).json()) as { result: { id: string } };
    expect(answer.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const again = await sendTo(base, 2, 'ses_a', true, answer.result.id);
    expect(await again.json()).toMatchObject({ id: 2, error: { code: -32004, message: expect.stringContaining('tasks never wait for input') } });
    expect(fixture!.server.requests).toHaveLength(1);
    expect(engine!.runs.list()).toHaveLength(1);
  });

  it('refuses a message naming a task that is still running: the task stays working, and tasks/cancel still cancels it', async () => {
    const base = await serveA2A({ main: () => ({ hang: true }) });
    const sent = (await (await sendTo(base, 1, 'ses_live')).json()) as { result: { id: string; status: { state: string } } };
    expect(sent.result.status.state).toBe('working');
    const taskId = sent.result.id;
    await fixture!.server.waitForRequests(1, 15_000);
    // A2A 0.3's `taskId`, and 1.0's proto-JSON spelling `task_id` (the SDK reads both).
    const legacy = await sendTo(base, 2, 'ses_live', false, taskId);
    const v1 = await rpc(base, 3, 'SendMessage', { message: { messageId: 'm3', role: 'ROLE_USER', task_id: taskId, parts: [{ text: 'hijack' }] } });
    for (const [answer, id] of [[legacy, 2], [v1, 3]] as const) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ id, error: { code: -32004, message: expect.stringContaining(`a message cannot name a task ("taskId": "${taskId}")`) } });
    }
    expect((await (await rpc(base, 4, 'tasks/get', { id: taskId })).json()) as object).toMatchObject({ result: { status: { state: 'working' } } });
    expect(engine!.runs.list().map((r) => r.state)).toEqual(['running']);
    expect(fixture!.server.requests).toHaveLength(1);
    expect((await (await rpc(base, 5, 'tasks/cancel', { id: taskId })).json()) as object).toMatchObject({ result: { status: { state: 'canceled' } } });
    expect(await fixture!.server.waitForClosed(0)).toMatchObject({ aborted: true });
  });

  it("keeps the conversation a 1.0 message names in proto JSON's spelling, context_id", async () => {
    const base = await serveA2A({ main: () => ({ text: 'done' }) });
    const sent = await rpc(base, 1, 'SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', context_id: 'ses_snake', parts: [{ text: 'hi' }] } });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ id: 1, result: { task: { contextId: 'ses_snake' } } });
    expect(engine!.runs.list().map((r) => r.sessionId)).toEqual(['ses_snake']);
  });

  it('a run cancelled elsewhere (the page\'s Stop) ends its task canceled, not failed', async () => {
    const base = await serveA2A({ main: () => ({ hang: true }) });
    const sent = (await (await sendTo(base, 1, 'ses_stop')).json()) as { result: { id: string; metadata: { rxharness: { runId: string } } } };
    await fixture!.server.waitForRequests(1, 15_000);
    engine!.runs.cancel(sent.result.metadata.rxharness.runId);
    await fixture!.server.waitForClosed(0);
    await vi.waitFor(async () => expect(await (await rpc(base, 9, 'tasks/get', { id: sent.result.id })).json()).toMatchObject({ result: { status: { state: 'canceled' } } }), { timeout: 10_000 });
  });
});

/** A JSON-RPC request `method` with `params`, behind the token. */
function rpc(base: string, id: number, method: string, params: object): Promise<Response> {
  return fetch(`${base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
}

/** A 0.3 `message/send` in conversation `contextId` (to task `taskId`), returning at once unless `blocking`. */
function sendTo(base: string, id: number, contextId: string, blocking = false, taskId?: string): Promise<Response> {
  return fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'message/send', params: { configuration: { blocking }, message: { kind: 'message', messageId: `m${id}`, role: 'user', contextId, ...(taskId ? { taskId } : {}), parts: [{ kind: 'text', text: 'hi' }] } } }),
  });
}
