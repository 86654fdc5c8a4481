import express from 'express';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { listen, postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
let ws: TestWorkspace | undefined;
let engine: HarnessEngine | undefined;
let server: Server | undefined;
afterEach(async () => {
  await served?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await engine?.close();
  await ws?.cleanup();
  served = ws = engine = server = undefined;
});

const echo = () => new ScriptedModel((request) => ({ text: `echo ${String(request.messages.at(-1)?.content ?? '').length}` }));

/** Keys that pollute a prototype when a body is merged into an object carelessly. */
const POISON = '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';

const polluted = (): unknown => (Object.prototype as unknown as Record<string, unknown>)['polluted'];

/** Bodies no client of the runs API sends, from one out to hurt the server. */
describe('runsHandler: hostile bodies', () => {
  it('takes "__proto__" and "constructor" keys in POST /runs and an approval body as plain data: no prototype is touched', async () => {
    served = await serveRuns({ model: echo() });
    const started = await postJson(`${served.url}/runs`, `{${POISON},"prompt":"hi","sessionId":"s-proto"}`, { raw: true });
    expect(started.status).toBe(201);
    const { runId } = started.body as { runId: string };
    const answered = await postJson(`${served.url}/runs/${runId}/approvals/apr_x`, `{${POISON},"decision":"approve","comment":{"__proto__":{"polluted":1}}}`, { raw: true });
    expect(answered.status).toBe(400); // a comment that is not a string
    expect(polluted()).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await vi.waitFor(() => expect(served!.engine.runs.get(runId)?.state).toBe('done'), { timeout: 15_000 });
    expect(served.engine.runs.list().map((r) => [r.sessionId, r.state])).toEqual([['s-proto', 'done']]);
  });

  it('refuses a session id or agent name of lone surrogates or NUL (400), and runs a prompt of them as text', async () => {
    served = await serveRuns({ model: echo() });
    for (const body of ['{"prompt":"hi","sessionId":"a\\u0000b"}', '{"prompt":"hi","agentName":"\\u0000"}']) {
      const answer = await postJson(`${served.url}/runs`, body, { raw: true });
      expect(answer.status, body).toBe(400);
    }
    const ran = await postJson(`${served.url}/runs`, '{"prompt":"a\\ud800b\\u0000c\\udfff"}', { raw: true });
    expect(ran.status).toBe(201);
    const { runId } = ran.body as { runId: string };
    await vi.waitFor(() => expect(served!.engine.runs.get(runId)?.state).toBe('done'), { timeout: 15_000 });
  });

  it('behind express.json(), refuses a body it parsed that nests 50,000 deep (400, as its own reading would), not a 500 from a stack overflow', async () => {
    ws = await makeWorkspace();
    engine = new HarnessEngine({ model: echo(), workspace: ws.dir, homeDir: ws.home });
    const app = express();
    app.use(express.json({ limit: '1mb' }));
    app.use(runsHandler(engine));
    server = app.listen(0, '127.0.0.1');
    const url = await listen(server);
    const deep = `{"prompt":"hi","sessionId":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const answer = await postJson(`${url}/runs`, deep, { raw: true });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'the body nests arrays and objects more than 100 deep' });
    expect(engine.runs.list()).toEqual([]);
    expect((await postJson(`${url}/runs`, { prompt: 'after' })).status).toBe(201);
  });
});

describe('runsHandler: names that are Object.prototype keys', () => {
  it('takes "__proto__", "constructor" and "toString" as session ids of their own, and refuses them as unknown agents (400)', async () => {
    // Each model request's message count: a session's second turn reads its first.
    const counts: number[] = [];
    served = await serveRuns({ model: new ScriptedModel((request) => (counts.push(request.messages.length), { text: 'ok' })) });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const agent = await postJson(`${served.url}/runs`, { prompt: 'hi', agentName: name });
      expect([agent.status, (agent.body as { error: string }).error], name).toEqual([400, expect.stringContaining(`unknown agent "${name}"`)]);
      const started = await postJson(`${served.url}/runs`, { prompt: `hi ${name}`, sessionId: name });
      expect(started.status, name).toBe(201);
      const { runId } = started.body as { runId: string };
      await vi.waitFor(() => expect(served!.engine.runs.get(runId)?.state).toBe('done'), { timeout: 15_000 });
      const again = await postJson(`${served.url}/runs`, { prompt: 'again', sessionId: name });
      expect(again.status, name).toBe(201);
      const second = (again.body as { runId: string }).runId;
      await vi.waitFor(() => expect(served!.engine.runs.get(second)?.state).toBe('done'), { timeout: 15_000 });
      expect(counts.at(-1), name).toBe(counts.at(-2)! + 2); // the first turn's prompt and answer: its own session, kept
    }
    expect(polluted()).toBeUndefined();
  });
});
