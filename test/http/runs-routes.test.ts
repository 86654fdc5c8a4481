import http from 'node:http';
import { from, map } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import type { ChatModel } from '../../src/model/chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { RunInfo } from '../../src/runs/run-types.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { createGate } from '../support/deferred.js';
import { listen, oneTo, openEvents, postJson, serveRuns, type RunsServer } from './http-kit.js';
import { EMPTY_HOME } from '../support/empty-home.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A model whose one reply streams `words` words, one chunk every `delayMs`. */
function slowModel(words = 20, delayMs = 5): ScriptedModel {
  return new ScriptedModel(() => ({ text: Array.from({ length: words }, (_, i) => `w${i} `).join(''), chunkSize: 4, chunkDelayMs: delayMs }));
}

describe('runsHandler: the routes', () => {
  it('POST /runs starts a run: 201 with its ids and a Location; GET /runs/:id is its RunInfo', async () => {
    served = await serveRuns({ model: slowModel() });
    const started = await postJson(`${served.url}/runs`, { prompt: 'go', sessionId: 'ses-a' });
    expect(started.status).toBe(201);
    const { runId, sessionId } = started.body as { runId: string; sessionId: string };
    expect(runId).toMatch(/^run_/);
    expect(sessionId).toBe('ses-a');
    expect(started.headers.get('location')).toBe(`/runs/${runId}`);
    const info = await fetch(`${served.url}/runs/${runId}`);
    expect(info.status).toBe(200);
    expect(info.headers.get('cache-control')).toBe('no-store');
    expect(await info.json()).toMatchObject({ runId, sessionId, agentName: 'main', state: 'running', startedAt: expect.any(Number) });
    await served.engine.runs.attach(runId).forEach(() => undefined);
    expect((await (await fetch(`${served.url}/runs/${runId}`)).json()) as RunInfo).toMatchObject({ state: 'done', endedAt: expect.any(Number) });
  });

  it('GET /runs/:id/events streams every event as id: <seq> / data: <SequencedEvent>, then event: end', async () => {
    served = await serveRuns({ model: slowModel() });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const stream = await openEvents(`${served.url}/runs/${runId}/events`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    await stream.ended;
    const events = stream.events();
    expect(events.map((e) => e.seq)).toEqual(oneTo(events.length));
    expect(stream.frames.filter((f) => f.data !== undefined && f.event === undefined).map((f) => Number(f.id))).toEqual(oneTo(events.length));
    expect(events.every((e) => e.runId === runId)).toBe(true);
    expect(events[0]!.event).toMatchObject({ type: 'RunStart', prompt: 'go' });
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false });
    // the ending's id is one past the last seq: what an EventSource that saw it reconnects with
    expect(stream.frames.at(-1)).toEqual({ event: 'end', data: '{}', id: String(events.length + 1) });
  });

  it('resumes after Last-Event-ID (an EventSource reconnecting) or ?after=N; the header wins', async () => {
    served = await serveRuns({ model: slowModel(10, 0) });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    await served.engine.runs.attach(runId).forEach(() => undefined);
    const all = await openEvents(`${served.url}/runs/${runId}/events`);
    await all.ended;
    const total = all.events().length;
    const byHeader = await openEvents(`${served.url}/runs/${runId}/events?after=1`, { 'last-event-id': '5' });
    const byQuery = await openEvents(`${served.url}/runs/${runId}/events?after=7`);
    await Promise.all([byHeader.ended, byQuery.ended]);
    expect(byHeader.events().map((e) => e.seq)).toEqual(oneTo(total).slice(5));
    expect(byQuery.events().map((e) => e.seq)).toEqual(oneTo(total).slice(7));
    expect(byQuery.frames.at(-1)).toEqual({ event: 'end', data: '{}', id: String(total + 1) });
    const pastTheEnd = await openEvents(`${served.url}/runs/${runId}/events?after=${total + 5}`);
    await pastTheEnd.ended;
    expect(pastTheEnd.frames).toEqual([{ event: 'end', data: '{}', id: String(total + 6) }]);
  });

  it('a dropped connection resumes where it was: no gap, no duplicate, one model run', async () => {
    const model = slowModel(40, 3);
    served = await serveRuns({ model });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const first = await openEvents(`${served.url}/runs/${runId}/events`);
    await first.waitFor((f) => Number(f.id) >= 5);
    first.disconnect();
    await first.ended;
    const seen = first.events();
    expect((await served.engine.runs.get(runId))?.state).toBe('running'); // leaving never stops it
    const second = await openEvents(`${served.url}/runs/${runId}/events`, { 'last-event-id': String(seen.at(-1)!.seq) });
    await second.ended;
    const seqs = [...seen, ...second.events()].map((e) => e.seq);
    expect(seqs).toEqual(oneTo(seqs.length));
    expect(second.events().at(-1)!.event.type).toBe('RunEnd');
    expect(model.requests).toHaveLength(1);
  });

  it('two clients attached to one run see the same sequence', async () => {
    served = await serveRuns({ model: slowModel(30, 2) });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const a = await openEvents(`${served.url}/runs/${runId}/events`);
    await a.waitFor((f) => Number(f.id) >= 3);
    const b = await openEvents(`${served.url}/runs/${runId}/events`);
    await Promise.all([a.ended, b.ended]);
    expect(b.events()).toEqual(a.events());
    expect(a.events().map((e) => e.seq)).toEqual(oneTo(a.events().length));
  });

  it('DELETE cancels: 202; both attached clients get event: cancelled and their responses end', async () => {
    served = await serveRuns({ model: new ScriptedModel([{ text: 'never', delayMs: 60_000 }]) });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const [a, b] = await Promise.all([openEvents(`${served.url}/runs/${runId}/events`), openEvents(`${served.url}/runs/${runId}/events`)]);
    await Promise.all([a, b].map((s) => s.waitFor((f) => f.id === '1')));
    const cancelled = await fetch(`${served.url}/runs/${runId}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toEqual({ runId, state: 'cancelled' });
    await Promise.all([a.ended, b.ended]);
    const lastSeq = a.events().at(-1)!.seq;
    for (const s of [a, b]) expect(s.frames.at(-1)).toEqual({ event: 'cancelled', data: JSON.stringify({ reason: 'the run was cancelled' }), id: String(lastSeq + 1) });
    expect(a.events()).toEqual(b.events());
    // Later: the replay, then the same ending. A second DELETE is still 202 (nothing left to stop).
    const later = await openEvents(`${served.url}/runs/${runId}/events`);
    await later.ended;
    expect(later.events()).toEqual(a.events());
    expect(later.frames.at(-1)!.event).toBe('cancelled');
    expect((await fetch(`${served.url}/runs/${runId}`, { method: 'DELETE' })).status).toBe(202);
  });

  it('sends keep-alive comments while the run is quiet, and leaves no timer or socket behind', async () => {
    const baseline = resourceCounts();
    // The model answers only once the reader has seen three comments: the count does not hang on
    // how busy the machine is (a fixed delay gave a loaded machine's timers too few turns).
    const quiet = createGate();
    const model: ChatModel = { id: 'quiet', stream: () => from(quiet.promise).pipe(map(() => ({ type: 'finish', text: 'late', toolCalls: [] }))) };
    served = await serveRuns({ model }, { keepAliveMs: 20 });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const stream = await openEvents(`${served.url}/runs/${runId}/events`);
    let comments = 0;
    await stream.waitFor((f) => f.comment === 'keep-alive' && ++comments === 3);
    quiet.open();
    await stream.ended;
    expect(stream.frames.filter((f) => f.comment === 'keep-alive').length).toBeGreaterThan(2);
    expect(stream.frames.at(-1)).toMatchObject({ event: 'end', data: '{}' });
    await served.close();
    served = undefined;
    expect(await leakedResources(baseline)).toEqual({});
  });

  it('serves under basePath; other paths are 404, or left to the caller with fallthrough or next', async () => {
    const engine = new HarnessEngine({ model: slowModel(2, 0), homeDir: EMPTY_HOME });
    const plain = runsHandler(engine, { basePath: '/api' });
    const through = runsHandler(engine, { basePath: '/api', fallthrough: true });
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith('/next')) {
        req.url = req.url.slice('/next'.length);
        plain(req, res, () => res.end('next called'));
      } else if (req.url?.startsWith('/through')) {
        req.url = req.url.slice('/through'.length);
        if (!through(req, res)) res.end('left to me');
      } else plain(req, res);
    });
    const url = await listen(server);
    try {
      const created = await postJson(`${url}/api/runs`, { prompt: 'hi' });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(`/api/runs/${(created.body as { runId: string }).runId}`);
      const missing = await fetch(`${url}/elsewhere`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 'not found: GET /elsewhere' });
      expect(await (await fetch(`${url}/next/elsewhere`)).text()).toBe('next called');
      expect(await (await fetch(`${url}/through/runs`)).text()).toBe('left to me'); // /runs is not under /api
      expect((await fetch(`${url}/next/api/runs/nope`)).status).toBe(404); // under the routes: answered, not passed on
      expect(() => runsHandler(engine, { basePath: 'api/' })).toThrow(TypeError);
      expect(() => runsHandler(engine, { maxBodyBytes: 0 })).toThrow(RangeError);
    } finally {
      await engine.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
