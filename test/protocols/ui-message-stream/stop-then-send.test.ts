import { describe, expect, it } from 'vitest';
import { chatHandler } from '../../../src/protocols/ui-message-stream/chat-handler.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { delegationFixturePerTest } from '../../support/fixture-per-test.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';

/**
 * `useChat`'s stop (the request aborted, which cancels the run), then at once the next
 * message of the chat. The cancelled run gives the chat's session back once its turn is
 * closed in the store; with a FileSessionStore that is after the cancel, and the next message
 * was refused `409`. It now waits for the ending run, briefly.
 */
const startFixture = delegationFixturePerTest();
const http = httpServerPerTest();

const body = (text: string): string => JSON.stringify({ id: 'chat-1', messages: [{ id: `u-${text}`, role: 'user', parts: [{ type: 'text', text }] }] });
const post = (url: string, text: string, signal?: AbortSignal): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(text), ...(signal ? { signal } : {}) });

describe('chatHandler: the next message right after a stop', () => {
  it('streams its answer once the stopped run has closed its turn in a FileSessionStore, not a 409', async () => {
    let n = 0;
    const fixture = await startFixture({ main: () => (n++ === 0 ? { hang: true } : { text: 'second answer' }) });
    const engine = fixture.engine({ sessions: new FileSessionStore(fixture.workspace.dir, { home: fixture.home }) });
    const url = await http.serve(chatHandler(engine));
    const stop = new AbortController();
    const first = await post(url, 'hang', stop.signal);
    expect(first.status).toBe(200);
    await fixture.server.waitForRequests(1, 15_000);
    stop.abort();
    await expect.poll(() => engine.runs.list()[0]?.state, { timeout: 20_000 }).toBe('cancelled'); // the server saw the stop
    const second = await post(url, 'again');
    const text = await second.text();
    expect(second.status).toBe(200);
    expect(text).toContain('second answer');
  }, 30_000);
});
