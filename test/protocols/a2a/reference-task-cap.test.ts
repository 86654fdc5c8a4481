import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../../src/engine/harness-engine.js';
import { a2aHandler } from '../../../src/protocols/a2a/a2a-handler.js';
import { MAX_REFERENCE_TASKS } from '../../../src/protocols/a2a/a2a-request.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';

let fixture: DelegationFixture | undefined;
let engine: HarnessEngine | undefined;
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await engine?.close();
  await fixture?.close();
  fixture = engine = server = undefined;
});

/**
 * The SDK copies every task a message names in `referenceTaskIds` (a repeat too) before the
 * run starts: one 1 MiB body naming one large task 26,000 times would take gigabytes, and
 * crash the server with every run in it. Our runs never read them: a few are let through.
 */
describe('a2aHandler: reference tasks of a message', () => {
  it.each([
    ['A2A 0.3', 'message/send', 'referenceTaskIds', (refs: Record<string, string[]>) => ({ message: { kind: 'message', messageId: 'm2', role: 'user', ...refs, parts: [{ kind: 'text', text: 'again' }] } })],
    ['A2A 1.0 (proto JSON)', 'SendMessage', 'reference_task_ids', (refs: Record<string, string[]>) => ({ message: { messageId: 'm2', role: 'ROLE_USER', ...refs, parts: [{ text: 'again' }] } })],
  ])('%s: a message naming more than the cap is refused as invalid params, and starts no run; one at the cap runs', async (_name, method, key, paramsOf) => {
    fixture = await startDelegationFixture({ main: () => ({ text: 'done' }) });
    engine = fixture.engine();
    server = createServer(a2aHandler(engine));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a`;
    const first = (await rpc(base, 1, 'message/send', { configuration: { blocking: true }, message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } })) as { result: { id: string } };
    const taskId = first.result.id;

    const flood = await rpc(base, 2, method, paramsOf({ [key]: Array<string>(MAX_REFERENCE_TASKS + 1).fill(taskId) }));
    expect(flood).toMatchObject({ id: 2, error: { code: -32602, message: expect.stringContaining(`at most ${MAX_REFERENCE_TASKS} reference tasks`) } });
    expect(engine.runs.list()).toHaveLength(1);

    const few = await rpc(base, 3, method, paramsOf({ [key]: Array<string>(MAX_REFERENCE_TASKS).fill(taskId) }));
    expect(few).not.toHaveProperty('error');
    expect(engine.runs.list()).toHaveLength(2);
  });
});

async function rpc(url: string, id: number, method: string, params: object): Promise<unknown> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return answer.json();
}
