import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { cancelRun, getRun, startRun } from '../../src/client/index.js';
import { rawRequest } from '../web/raw-request.js';
import { serveRuns, type RunsServer } from './http-kit.js';
import { EMPTY_HOME } from '../support/empty-home.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const model = () => new ScriptedModel(() => ({ text: 'ok', delayMs: 20 }));
const SECRET = 'library-user-secret-123';

/** The hook as docs/http.md shows it: a bearer token, compared in constant time. */
const byBearer = async (req: IncomingMessage): Promise<boolean> => {
  await Promise.resolve(); // an asynchronous check (a session store) works the same
  return req.headers.authorization === `Bearer ${SECRET}`;
};

describe('runsHandler: authorize', () => {
  it('refuses (401) every route when the hook says no, before reading a body or looking a run up', async () => {
    const seen: string[] = [];
    served = await serveRuns({ model: model() }, {
      authorize: (req) => {
        seen.push(`${req.method} ${req.url} body read: ${String(req.readableEnded)}`);
        return byBearer(req);
      },
    });
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/runs', { prompt: 'hi' }],
      ['GET', '/runs/run_1'],
      ['GET', '/runs/run_1/events'],
      ['DELETE', '/runs/run_1'],
      ['POST', '/runs/run_1/approvals/call_1', { decision: 'approve' }],
      ['PUT', '/runs'],
      ['GET', '/runs/..%2F'],
    ];
    for (const [method, path, body] of routes) {
      const answer = await rawRequest(`${served.url}${path}`, { method, body });
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('not authorized') });
    }
    expect(seen).toHaveLength(routes.length);
    expect(seen[0]).toBe('POST /runs body read: false');
    expect(served.engine.runs.list()).toEqual([]);
    // outside the routes, the hook is not asked: the path is not the handler's
    expect((await rawRequest(`${served.url}/elsewhere`)).status).toBe(404);
    expect(seen).toHaveLength(routes.length);
  });

  it('lets a request through when the hook says yes; the client sends its token as a Bearer header', async () => {
    served = await serveRuns({ model: model() }, { authorize: byBearer });
    await expect(startRun(served.url, { prompt: 'hi' })).rejects.toMatchObject({ status: 401 });
    const { runId } = await startRun(served.url, { prompt: 'hi' }, { token: SECRET });
    expect((await getRun(served.url, runId, { token: SECRET })).runId).toBe(runId);
    await cancelRun(served.url, runId, { token: SECRET }).catch(() => undefined); // it may have ended
  });

  it('a hook that throws is a 500, never a pass', async () => {
    served = await serveRuns({ model: model() }, { authorize: () => { throw new Error('the session store is down'); } });
    const answer = await rawRequest(`${served.url}/runs`, { method: 'POST', body: { prompt: 'hi' } });
    expect(answer.status).toBe(500);
    expect(served.engine.runs.list()).toEqual([]);
  });

  it('checks its options when made', () => {
    const engine = new HarnessEngine({ model: model(), homeDir: EMPTY_HOME });
    expect(() => runsHandler(engine, { authorize: 'yes' as never })).toThrow('authorize must be a function');
    expect(() => runsHandler(engine, { maxRuns: 0 })).toThrow('maxRuns must be a whole number, at least 1, got 0');
    expect(() => runsHandler(engine, { bodyTimeoutMs: 0 })).toThrow('bodyTimeoutMs must be a number of milliseconds from 1');
    void engine.close();
  });
});
