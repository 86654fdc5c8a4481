/**
 * The shared setup of the compaction-over-HTTP tests (compact-*.test.ts): a fake model and an
 * engine over a session store behind `runsHandler`, both closed after each test; a compaction
 * whose client can leave mid-request; and a probe of whether anybody holds a session.
 *
 * @module
 */
import http from 'node:http';
import type { RunsHandlerOptions } from '../../src/http/runs-handler-options.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import { FakeOpenAIServer, type FakeHandler } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

/** What one test serves: the engine's routes and the fake model behind them. */
export interface CompactServer {
  readonly served: RunsServer;
  readonly fake: FakeOpenAIServer;
}

/** Starts a fake model answering with `handler` and an engine on it over `sessions`, served by `runsHandler(engine, handlerOptions)`. */
export type ServeCompact = (handler: FakeHandler, sessions: SessionStore, handlerOptions?: RunsHandlerOptions) => Promise<CompactServer>;

/**
 * Registers the `afterEach` that closes what the returned function served (the engine's
 * server first, so no request is left to reach a closed model); call once at the top of a
 * test file.
 */
export function compactServerPerTest(): ServeCompact {
  const open = closedAfterEach<{ served: RunsServer; fake: FakeOpenAIServer }>(['served', 'fake']);
  return async (handler, sessions, handlerOptions = {}) => {
    const fake = (open.fake = await FakeOpenAIServer.start({ handler }));
    const served = (open.served = await serveRuns({ model: openAIModelFor(fake), sessions }, handlerOptions));
    return { served, fake };
  };
}

/** A compaction whose client can leave (its connection destroyed, as a closed tab would); its status once answered. */
export interface LeavableCompaction {
  readonly status: Promise<number>;
  leave(): void;
}

/**
 * `POST {url}/sessions/{id}/compact` on a connection the test can drop. With `bodyWithheld`,
 * the headers go at once and the body they announce (2 bytes) never comes: the client leaves
 * before the body is read.
 */
export function compactLeavable(url: string, id: string, { bodyWithheld = false } = {}): LeavableCompaction {
  const headers = { 'content-type': 'application/json', ...(bodyWithheld ? { 'content-length': '2' } : {}) };
  const request = http.request(`${url}/sessions/${id}/compact`, { method: 'POST', headers });
  request.on('error', () => undefined); // left on purpose
  const status = new Promise<number>((resolve) => request.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0))));
  if (bodyWithheld) request.flushHeaders();
  else request.end('{}');
  return { status, leave: () => request.destroy() };
}

/** `POST {url}/sessions/{id}/compact` with an empty body, answered. */
export function postCompact(url: string, id: string): ReturnType<typeof postJson> {
  return postJson(`${url}/sessions/${id}/compact`, {});
}

/** Whether nobody holds session `id` now (the probe's own claim is given back at once). */
export async function sessionFree(sessions: SessionStore, id: string): Promise<boolean> {
  const claim = await sessions.claim!(id, 'probe');
  if (claim.granted) await claim.release();
  return claim.granted;
}
