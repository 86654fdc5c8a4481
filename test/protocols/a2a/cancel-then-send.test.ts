import { describe, expect, it } from 'vitest';
import { a2aHandler } from '../../../src/protocols/a2a/a2a-handler.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { delegationFixturePerTest } from '../../support/fixture-per-test.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';

/**
 * `tasks/cancel`, then at once a message in the same `contextId` ("Stop", then send again).
 * The cancelled run gives the conversation back once its turn is closed in the store; with a
 * FileSessionStore that is after the cancel was answered, and the message was refused `409`
 * ("is busy: run … has not ended yet"). It now waits for the ending run, briefly.
 */
const startFixture = delegationFixturePerTest();
const http = httpServerPerTest();

interface RpcAnswer {
  readonly status: number;
  readonly body: { result?: { id?: string; status?: { state?: string; message?: { parts?: { text?: string }[] } } }; error?: { message?: string } };
}

async function rpc(url: string, id: number, method: string, params: object): Promise<RpcAnswer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return { status: res.status, body: (await res.json()) as RpcAnswer['body'] };
}

const message = (contextId: string, text: string, blocking: boolean) => ({
  configuration: { blocking },
  message: { kind: 'message', messageId: `m-${text}`, role: 'user', contextId, parts: [{ kind: 'text', text }] },
});

describe('a2aHandler: a message right after tasks/cancel in the same contextId', () => {
  it('runs once the cancelled task has closed its turn in a FileSessionStore, not a 409', async () => {
    let n = 0;
    const fixture = await startFixture({ main: () => (n++ === 0 ? { hang: true } : { text: 'second answer' }) });
    const engine = fixture.engine({ sessions: new FileSessionStore(fixture.workspace.dir, { home: fixture.home }) });
    const url = `${await http.serve(a2aHandler(engine))}/a2a`;
    const first = await rpc(url, 1, 'message/send', message('ctx-1', 'hang please', false));
    await fixture.server.waitForRequests(1, 15_000);
    const cancelled = await rpc(url, 2, 'tasks/cancel', { id: first.body.result!.id! });
    expect(cancelled.body.result?.status?.state).toBe('canceled');
    const next = await rpc(url, 3, 'message/send', message('ctx-1', 'again', true));
    expect(next.body.error).toBeUndefined();
    expect(next.status).toBe(200);
    expect(next.body.result?.status?.state).toBe('completed');
    expect(next.body.result?.status?.message?.parts?.[0]?.text).toBe('second answer');
  }, 30_000);
});
