/**
 * A conversation started under any id `POST /runs` takes can be reached through the session
 * routes: the routes once took only printable ASCII without `/`, so one started as `my chat`,
 * `team/notes` or `projet-é` was listed but answered `404` to get, compact, archive and delete.
 * And `.` and `..`, which no URL can carry as a segment, are refused at the start.
 */
import http, { type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteSession, getSession, listSessions, startRun } from '../../src/client/index.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { serveRuns, type RunsServer } from './http-kit.js';

const TOKEN = 'session-id-routes-token-012345';
const authorize = (req: IncomingMessage): boolean => req.headers.authorization === `Bearer ${TOKEN}`;
const AUTH = { authorization: `Bearer ${TOKEN}` };

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** An engine on a model that answers the run, then the compaction's summary. */
async function serve(): Promise<string> {
  served = await serveRuns({ model: new ScriptedModel([{ text: 'Stored answer.' }, { text: 'Summary of it.' }]) }, { basePath: '/api', authorize });
  return `${served.url}/api`;
}

async function call(method: string, url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method, headers: { ...AUTH, 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A request sent with its path as it is (`fetch` would resolve `%2e` segments first). */
function asIs(method: string, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port, pathname } = new URL(url.replace(/\/sessions\/.*/, '')); // the base only: `new URL` resolves dot segments too
    const path = pathname + url.slice(url.indexOf('/sessions/'));
    const request = http.request({ hostname, port, path, method, headers: { ...AUTH, 'content-type': 'application/json' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    request.on('error', reject).end(method === 'POST' ? '{}' : undefined);
  });
}

describe('session ids: what a start takes, the session routes reach', () => {
  it.each(['my chat', 'team/notes', 'projet-é', 'a\u00a0b', 'q?x=1#top', '50%', '%2e%2E', '...', '🙂'.repeat(128)])(
    'a conversation started as %j is listed, opened, compacted, archived and deleted',
    async (sessionId) => {
      const api = await serve();
      const started = await startRun(api, { prompt: 'Remember 7', sessionId }, { token: TOKEN });
      expect(started.sessionId).toBe(sessionId);
      await served!.engine.runs.attach(started.runId).forEach(() => undefined);
      expect((await listSessions(api, { token: TOKEN })).map((s) => s.sessionId)).toEqual([sessionId]);

      const details = await getSession(api, sessionId, { token: TOKEN });
      expect([details.sessionId, details.messages.map((m) => m.content)]).toEqual([sessionId, ['Remember 7', 'Stored answer.']]);
      const one = `${api}/sessions/${encodeURIComponent(sessionId)}`;
      const compacted = await call('POST', `${one}/compact`);
      expect(compacted.status).toBe(200);
      expect(compacted.body).toMatchObject({ type: 'Compaction', sessionId });
      const archive = await call('GET', `${one}/archive`);
      expect(archive.status).toBe(200);
      expect(archive.body.sessionId).toBe(sessionId);

      await deleteSession(api, sessionId, { token: TOKEN });
      expect(await listSessions(api, { token: TOKEN })).toEqual([]);
      expect((await call('GET', one)).status).toBe(404);
    },
    30_000,
  );

  it.each(['.', '..'])('refuses to start a conversation named %j (a URL resolves it away): 400, no run', async (sessionId) => {
    const api = await serve();
    const answer = await fetch(`${api}/runs`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hi', sessionId }) });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toMatch(/^"sessionId" cannot be "\." or "\.\.": those are dot segments in a URL/);
    expect(served!.engine.runs.list()).toEqual([]);
  });

  it('refuses a sessionId with a lone surrogate at the start (400), as every store would after', async () => {
    const api = await serve();
    const answer = await fetch(`${api}/runs`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"prompt":"hi","sessionId":"ses_\\ud800"}' });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toMatch(/^"sessionId" cannot name a conversation: it is not well-formed Unicode/);
    expect(served!.engine.runs.list()).toEqual([]);
  });

  it('answers 400 to a path id that is no percent-encoding, 404 to one no conversation can have', async () => {
    const api = await serve();
    for (const [method, tail] of [['GET', ''], ['DELETE', ''], ['POST', '/compact'], ['GET', '/archive']] as const) {
      const malformed = await call(method, `${api}/sessions/%E0%A4%A${tail}`);
      expect(malformed, `${method} ${tail}`).toEqual({ status: 400, body: { error: expect.stringContaining('not percent-encoded UTF-8 ("%E0%A4%A")') } });
      for (const id of ['%2E%2E', '%2e', 'a%0Ab', 'x'.repeat(257)]) expect(await asIs(method, `${api}/sessions/${id}${tail}`), `${method} ${id}${tail}`).toBe(404);
    }
  });
});
