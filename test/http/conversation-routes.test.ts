/**
 * The conversation routes of runsHandler: GET /api/sessions, GET and DELETE /api/sessions/:id,
 * behind the token like every route; unknown ids are 404s.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { serveRuns, type RunsServer } from './http-kit.js';

const TOKEN = 'conversation-routes-token-0123';
const authorize = (req: IncomingMessage) => req.headers.authorization === `Bearer ${TOKEN}`;
const AUTH = { authorization: `Bearer ${TOKEN}` };

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function call(method: string, path: string, headers: Record<string, string> = AUTH): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${served!.url}/api${path}`, { method, headers });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Starts a run over HTTP and waits for its end. */
async function turn(prompt: string, sessionId?: string): Promise<{ runId: string; sessionId: string }> {
  const response = await fetch(`${served!.url}/api/runs`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ prompt, sessionId }) });
  expect(response.status).toBe(201);
  const started = (await response.json()) as { runId: string; sessionId: string };
  await served!.engine.runs.attach(started.runId).forEach(() => undefined);
  return started;
}

describe('conversation routes', () => {
  it('answer 401 without the token, before looking anything up', async () => {
    served = await serveRuns({ model: new ScriptedModel([]) }, { basePath: '/api', authorize });
    for (const [method, path] of [['GET', '/sessions'], ['GET', '/sessions/ses_x'], ['DELETE', '/sessions/ses_x'], ['DELETE', '/runs/run_x/tasks/task_x']] as const) {
      const { status } = await call(method, path, {});
      expect(status, `${method} ${path}`).toBe(401);
    }
  });

  it('list conversations by last activity with the first prompt as title; open one with its messages and runs; delete it', async () => {
    served = await serveRuns({ model: new ScriptedModel([{ text: 'First answer.' }, { text: 'Other answer.' }, { text: 'Second answer.' }]) }, { basePath: '/api', authorize });
    const first = await turn('Remember\nthe number 7');
    const other = await turn('Something else');
    await turn('What number?', first.sessionId);
    const list = (await call('GET', '/sessions')).body as { sessions: Array<{ sessionId: string; title: string; lastActivityAt: number }> };
    expect(list.sessions.map((s) => [s.sessionId, s.title])).toEqual([[first.sessionId, 'Remember the number 7'], [other.sessionId, 'Something else']]);
    expect(list.sessions[0]!.lastActivityAt).toBeGreaterThanOrEqual(list.sessions[1]!.lastActivityAt);

    const opened = await call('GET', `/sessions/${first.sessionId}`);
    expect(opened.status).toBe(200);
    const details = opened.body as { title: string; messages: Array<{ role: string; content: string }>; runs: Array<{ state: string; sessionId: string }> };
    expect(details.title).toBe('Remember the number 7');
    expect(details.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Remember\nthe number 7'], ['assistant', 'First answer.'], ['user', 'What number?'], ['assistant', 'Second answer.'],
    ]);
    expect(details.runs.map((r) => r.state)).toEqual(['done', 'done']);

    expect((await call('DELETE', `/sessions/${first.sessionId}`)).status).toBe(204);
    expect((await call('GET', `/sessions/${first.sessionId}`)).status).toBe(404);
    expect(((await call('GET', '/sessions')).body as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId)).toEqual([other.sessionId]);
  });

  it('DELETE forgets the "always" approvals too: a new conversation reusing the id is asked again', async () => {
    let asked = 0;
    const model = new ScriptedModel((request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }] }));
    served = await serveRuns({ model, approve: () => (asked++, { decision: 'always' }) }, { basePath: '/api', authorize });
    await turn('first', 'notes');
    await turn('again', 'notes');
    expect(asked).toBe(1);
    expect((await call('DELETE', '/sessions/notes')).status).toBe(204);
    await turn('a new conversation', 'notes');
    expect(asked).toBe(2);
  });

  it('answer 404 for unknown sessions and 405 for other methods', async () => {
    served = await serveRuns({ model: new ScriptedModel([]) }, { basePath: '/api', authorize });
    const unknown = await call('GET', '/sessions/ses_nobody');
    expect(unknown).toEqual({ status: 404, body: { error: expect.stringContaining('unknown session "ses_nobody"') } });
    expect((await call('DELETE', '/sessions/ses_nobody')).status).toBe(404);
    expect((await call('GET', '/sessions/%E0%A4%A')).status).toBe(400); // a malformed escape: no id at all
    expect((await call('POST', '/sessions')).status).toBe(405);
    expect((await call('PUT', '/sessions/ses_nobody')).status).toBe(405);
  });
});
