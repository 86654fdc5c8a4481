import express from 'express';
import Fastify from 'fastify';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { oneTo, openEvents, postJson } from './http-kit.js';

let ws: TestWorkspace | undefined;
let engine: HarnessEngine | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await engine?.close();
  await ws?.cleanup();
  ws = engine = stop = undefined;
});

/** An engine whose main agent hands a `bash` call (which asks) to a worker task. */
async function nestedEngine(): Promise<HarnessEngine> {
  ws = await makeWorkspace();
  const model = new ScriptedModel(
    scriptedRoutes({
      main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'p', description: 'd' } }] }),
      worker: scriptedSteps({ toolCalls: [{ id: 'c-1', name: 'bash', args: { command: 'echo framework-ok' } }] }),
    }),
    { chunkDelayMs: 1, chunkSize: 3 },
  );
  engine = new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.home });
  engine.agents.add(testAgent('worker'));
  return engine;
}

/** Starts a run at `base`, answers its approval, follows it to the end; checks the app's own route still answers. */
async function exercise(base: string, ownRoute: string): Promise<void> {
  const started = await postJson(`${base}/runs`, { prompt: 'go' });
  expect(started.status).toBe(201);
  const { runId } = started.body as { runId: string };
  const stream = await openEvents(`${base}/runs/${runId}/events`);
  const pending = await stream.waitFor((f) => f.data?.includes('"HITLPending"') === true);
  const { approvalId } = (JSON.parse(pending.data!) as { event: { event: { approvalId: string } } }).event.event;
  expect((await postJson(`${base}/runs/${runId}/approvals/${approvalId}`, { decision: 'approve' })).status).toBe(204);
  await stream.ended;
  const events = stream.events();
  expect(events.map((e) => e.seq)).toEqual(oneTo(events.length));
  expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false, text: expect.stringContaining('framework-ok') });
  expect(stream.frames.at(-1)).toEqual({ event: 'end', data: '{}', id: String(events.length + 1) });
  expect(await (await fetch(`${base}/runs/${runId}`)).json()).toMatchObject({ runId, state: 'done' });
  expect((await fetch(`${base}/runs/run_unknown`, { method: 'DELETE' })).status).toBe(404);
  expect((await postJson(`${base}/runs`, '{bad', { raw: true })).status).toBe(400); // ours, or express.json()'s
  expect(await (await fetch(ownRoute)).text()).toBe('the app answers');
}

describe('runsHandler under frameworks, with real servers and fetch', () => {
  it('Express: app.use("/api", handler) (the mount path is stripped), other routes reach next()', async () => {
    const app = express();
    app.use('/api', runsHandler(await nestedEngine()));
    app.get('/hello', (_req, res) => void res.send('the app answers'));
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    stop = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await exercise(`${base}/api`, `${base}/hello`);
  });

  it('Express behind express.json(): the body it parsed is used', async () => {
    const app = express();
    app.use(express.json());
    app.use(runsHandler(await nestedEngine(), { basePath: '/api' }));
    app.get('/hello', (_req, res) => void res.send('the app answers'));
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    stop = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await exercise(`${base}/api`, `${base}/hello`);
  });

  it('Fastify: an onRequest hook hands its raw request and response over and hijacks the reply', async () => {
    const app = Fastify();
    const runs = runsHandler(await nestedEngine(), { basePath: '/api', fallthrough: true });
    app.addHook('onRequest', (request, reply, done) => {
      if (runs(request.raw, reply.raw)) reply.hijack();
      else done();
    });
    app.get('/hello', async () => 'the app answers');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    stop = async () => {
      app.server.closeAllConnections();
      await app.close();
    };
    await exercise(`${address}/api`, `${address}/hello`);
  });

  it('Fastify route mounted after its body parser: a clear 500 says to mount the handler first', async () => {
    const app = Fastify();
    const runs = runsHandler(await nestedEngine());
    app.all('/runs', (request, reply) => {
      reply.hijack();
      runs(request.raw, reply.raw);
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    stop = async () => {
      app.server.closeAllConnections();
      await app.close();
    };
    const answer = await postJson(`${address}/runs`, { prompt: 'go' });
    expect(answer.status).toBe(500);
    expect((answer.body as { error: string }).error).toMatch(/already read by another handler: mount runsHandler before any body parser/);
  });
});
