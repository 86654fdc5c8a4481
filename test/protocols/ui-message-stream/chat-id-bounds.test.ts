import { afterEach, describe, expect, it } from 'vitest';
import { MAX_NAME } from '../../../src/http/request-bodies.js';
import { chatHandler } from '../../../src/protocols/ui-message-stream/chat-handler.js';
import { serveProtocol, TOKEN, type ProtocolServer } from '../protocol-kit.js';

let served: ProtocolServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const serve = async (): Promise<ProtocolServer> =>
  (served = await serveProtocol('/api/chat', { main: () => ({ text: 'done' }) }, (engine, authorize) => chatHandler(engine, { path: '/api/chat', authorize })));

async function postChat(url: string, id: string): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ id, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] }] });
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body });
  return { status: response.status, text: await response.text() };
}

/** The chat's `id` is the session's id, sent back in the stream's metadata: bounded as the runs API's `sessionId`. */
describe('chatHandler: the bounds of a chat id', () => {
  it.each([
    ['one character too long', 'c'.repeat(MAX_NAME + 1), `got ${MAX_NAME + 1} characters`],
    ['900 KB long', 'c'.repeat(900_000), 'got 900000 characters'],
    ['a control character (newline)', 'chat\none', 'got 8 characters'],
    ['a control character (DEL)', 'chat\u007fone', 'got 8 characters'],
  ])('refuses an id of %s (400 naming the field), before any run starts', async (_name, id, length) => {
    const { url, fixture, engine } = await serve();
    const answer = await postChat(url, id);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      error: `not a chat request: id must be 1 to ${MAX_NAME} characters without control characters (the chat id is the session's id), ${length}`,
    });
    expect(fixture.server.requests).toHaveLength(0);
    expect(engine.runs.list()).toHaveLength(0);
  }, 30_000);

  it(`takes an id of ${MAX_NAME} characters: the run is on that session`, async () => {
    const { url, engine } = await serve();
    const id = `c-${'y'.repeat(MAX_NAME - 2)}`;
    const answer = await postChat(url, id);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('done');
    expect(answer.text).toContain(`"sessionId":"${id}"`);
    expect(engine.runs.list().map((r) => r.sessionId)).toEqual([id]);
  }, 30_000);
});
