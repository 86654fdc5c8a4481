/**
 * Every protocol start names a conversation as the runs API does (an A2A `contextId`, an AG-UI
 * `threadId`, a `useChat` id), and the session routes of the same engine reach it: one named
 * `Q3 plan/draft` by an A2A peer was listed, but the routes answered `404` to get and delete.
 * `.` and `..`, which no URL can carry as a segment, are refused at every start.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteSession, getSession, listSessions } from '../../src/client/index.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { a2aHandler } from '../../src/protocols/a2a/a2a-handler.js';
import { agUiHandler } from '../../src/protocols/ag-ui/ag-ui-handler.js';
import { chatHandler } from '../../src/protocols/ui-message-stream/chat-handler.js';
import { serveRuns, type RunsServer } from '../http/http-kit.js';
import { TOKEN } from './protocol-kit.js';

const authorize = (req: IncomingMessage): boolean => req.headers.authorization === `Bearer ${TOKEN}`;

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The runs API and the three protocols under `/api`, on one engine. */
async function serve(): Promise<string> {
  served = await serveRuns({ model: new ScriptedModel([{ text: 'Stored answer.' }]) }, { basePath: '/api', authorize }, (engine) => [
    a2aHandler(engine, { basePath: '/api', authorize, fallthrough: true }),
    agUiHandler(engine, { path: '/api/ag-ui', authorize }),
    chatHandler(engine, { path: '/api/chat', authorize }),
  ]);
  return `${served.url}/api`;
}

/** How each protocol starts a conversation named `id`, and what its refusal of a bad one looks like. */
const STARTS = {
  'A2A 0.3 contextId': {
    path: '/a2a',
    body: (id: string) => ({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { configuration: { blocking: true }, message: { kind: 'message', messageId: 'm1', role: 'user', contextId: id, parts: [{ kind: 'text', text: 'Remember 7' }] } } }),
  },
  'A2A 1.0 context_id': {
    path: '/a2a',
    body: (id: string) => ({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { configuration: { blocking: true }, message: { messageId: 'm1', role: 'ROLE_USER', context_id: id, parts: [{ text: 'Remember 7' }] } } }),
  },
  'AG-UI threadId': { path: '/ag-ui', body: (id: string) => ({ threadId: id, runId: 'r1', messages: [{ id: 'u1', role: 'user', content: 'Remember 7' }] }) },
  'useChat id': { path: '/chat', body: (id: string) => ({ id, messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Remember 7' }] }] }) },
} as const;

async function start(api: string, how: keyof typeof STARTS, id: string): Promise<{ status: number; text: string }> {
  const { path, body } = STARTS[how];
  const answer = await fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body(id)) });
  return { status: answer.status, text: await answer.text() };
}

const HOWS = Object.keys(STARTS) as Array<keyof typeof STARTS>;

describe('protocol starts and the session routes: one rule for a conversation id', () => {
  it.each(HOWS.flatMap((how) => ['Q3 plan/draft', 'projet-é', 'my chat'].map((id) => [how, id] as const)))('%s %j: the conversation can be opened and deleted', async (how, id) => {
    const api = await serve();
    const answer = await start(api, how, id);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('"error"');
    await Promise.all(served!.engine.runs.list().map((run) => served!.engine.runs.attach(run.runId).forEach(() => undefined)));
    expect((await listSessions(api, { token: TOKEN })).map((s) => s.sessionId)).toEqual([id]);
    expect((await getSession(api, id, { token: TOKEN })).messages.map((m) => m.content)).toEqual(['Remember 7', 'Stored answer.']);
    await deleteSession(api, id, { token: TOKEN });
    expect(await listSessions(api, { token: TOKEN })).toEqual([]);
  }, 30_000);

  it.each(HOWS.flatMap((how) => ['.', '..'].map((id) => [how, id] as const)))('%s %j is refused, naming why; no run starts', async (how, id) => {
    const api = await serve();
    const answer = await start(api, how, id);
    if (how.startsWith('A2A')) {
      expect(answer.status).toBe(200); // a JSON-RPC error: invalid params
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32602, message: expect.stringContaining(`contextId (the session's id) cannot be "." or "..": those are dot segments in a URL`) } });
    } else {
      expect(answer.status).toBe(400);
      expect((JSON.parse(answer.text) as { error: string }).error).toMatch(/(threadId|id) \(.*session's id\) cannot be "\." or "\.\.": those are dot segments in a URL/);
    }
    expect(served!.engine.runs.list()).toEqual([]);
  }, 30_000);
});
