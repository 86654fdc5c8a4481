import { describe, expect, it } from 'vitest';
import { MAX_REFERENCE_TASKS } from '../../../src/protocols/a2a/a2a-request.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();

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
    const { engine, url } = await a2a.serve({ main: () => ({ text: 'done' }) });
    const base = `${url}/a2a`;
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
