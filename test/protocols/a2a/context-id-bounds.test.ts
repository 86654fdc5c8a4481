import { describe, expect, it } from 'vitest';
import { MAX_NAME } from '../../../src/http/request-bodies.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();

const legacy = (contextId: string) => ['message/send', { configuration: { blocking: true }, message: { kind: 'message', messageId: 'm1', role: 'user', contextId, parts: [{ kind: 'text', text: 'go' }] } }] as const;
const proto = (contextId: string) => ['SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', context_id: contextId, parts: [{ text: 'go' }] } }] as const;

/** A message's `contextId` is the session's id, kept with its task and sent in every update: bounded as the runs API's `sessionId`. */
describe('a2aHandler: the bounds of a contextId', () => {
  it.each([
    ['A2A 0.3, one character too long', legacy('k'.repeat(MAX_NAME + 1)), MAX_NAME + 1],
    ['A2A 0.3, 900 KB long', legacy('k'.repeat(900_000)), 900_000],
    ['A2A 0.3, a control character (tab)', legacy('ctx\tone'), 7],
    ['A2A 1.0 (context_id), one character too long', proto('k'.repeat(MAX_NAME + 1)), MAX_NAME + 1],
    ['A2A 1.0 (context_id), a control character (NUL)', proto('ctx\u0000one'), 7],
  ])('%s: refused as invalid params (-32602), no run starts', async (_name, [method, params], length) => {
    const { engine, fixture, url } = await a2a.serve({ main: () => ({ text: 'never asked' }) });
    const answer = await rpc(`${url}/a2a`, 7, method, params);
    expect(answer).toMatchObject({
      id: 7,
      error: { code: -32602, message: expect.stringContaining(`contextId must be 1 to ${MAX_NAME} characters without control characters (it is the session's id), this one has ${length} characters`) },
    });
    expect(JSON.stringify(answer).length).toBeLessThan(1000); // the refusal does not echo it
    expect(fixture.server.requests).toHaveLength(0);
    expect(engine.runs.list()).toHaveLength(0);
  }, 30_000);

  it.each([
    ['A2A 0.3', legacy],
    ['A2A 1.0 (context_id)', proto],
  ])(`%s: takes a contextId of ${MAX_NAME} characters, the run is on that session`, async (_name, send) => {
    const { engine, url } = await a2a.serve({ main: () => ({ text: 'done' }) });
    const contextId = `k-${'z'.repeat(MAX_NAME - 2)}`;
    const [method, params] = send(contextId);
    const answer = await rpc(`${url}/a2a`, 8, method, params);
    expect(answer).not.toHaveProperty('error');
    expect(JSON.stringify(answer)).toContain(contextId);
    expect(engine.runs.list().map((r) => r.sessionId)).toEqual([contextId]);
  }, 30_000);
});

async function rpc(url: string, id: number, method: string, params: object): Promise<unknown> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return answer.json();
}
