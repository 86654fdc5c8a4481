import { request, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();
const warnings: Error[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

/**
 * A subscription to a task (`tasks/resubscribe`, `SubscribeToTask`) whose client leaves
 * while the task is quiet must let go of the task's bus then, not at the task's next event:
 * a task can wait for hours (an approval), and a client resubscribing in a loop would grow
 * the server by some 14 KB each time. Node warns once a bus holds more than 10 listeners.
 */
describe('a2aHandler: a subscriber that leaves', () => {
  it.each([
    ['A2A 0.3', 'tasks/resubscribe'],
    ['A2A 1.0', 'SubscribeToTask'],
  ])('%s: 30 subscriptions to a quiet task, each dropped, leave no listener behind; one that stays still gets the task, and it can be cancelled', async (_name, method) => {
    const served = await a2a.serve({ main: () => ({ hang: true }) });
    const { fixture, server } = served;
    const url = `${served.url}/a2a`;
    const sent = (await rpc(url, 'message/send', { configuration: { blocking: false }, message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'wait' }] } })) as { result: { id: string } };
    const taskId = sent.result.id;
    await fixture.server.waitForRequests(1, 15_000);
    process.on('warning', onWarning);
    const idle = await connections(server); // fetch's kept-alive one

    for (let i = 0; i < 30; i++) {
      const stream = await open(url, method, { id: taskId });
      expect(await firstFrame(stream)).toContain(taskId);
      stream.destroy();
      await vi.waitFor(async () => expect(await connections(server)).toBe(idle));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => w.message).filter((m) => m.includes('ExecutionEventBus'))).toEqual([]);

    const staying = await open(url, method, { id: taskId });
    expect(await firstFrame(staying)).toContain(taskId);
    let rest = '';
    staying.setEncoding('utf8').on('data', (chunk: string) => (rest += chunk));
    const cancel = method === 'SubscribeToTask' ? 'CancelTask' : 'tasks/cancel';
    expect(JSON.stringify(await rpc(url, cancel, { id: taskId }))).toMatch(/"state":"(canceled|TASK_STATE_CANCELED)"/);
    await vi.waitFor(() => expect(rest).toMatch(/CANCELED|canceled/));
  });
});

async function rpc(url: string, method: string, params: object): Promise<unknown> {
  return (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
}

/** A stream opened with node:http on a connection of its own, so the test can drop it. */
function open(url: string, method: string, params: object): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, resolve)
      .on('error', reject)
      .end(JSON.stringify({ jsonrpc: '2.0', id: 2, method, params }));
  });
}

function firstFrame(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve) => stream.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
}

function connections(of: Server): Promise<number> {
  return new Promise((resolve, reject) => of.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}
