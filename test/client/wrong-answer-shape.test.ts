/**
 * A `baseUrl` that names something other than the runs routes: a dev server or proxy that
 * answers its single page for every path (`200`, HTML), or another API's JSON. The client's
 * calls reject with a `RunRequestError` naming the request and what came, never a bare
 * `SyntaxError` ("Unexpected token '<'") or an answer of the wrong shape handed on to code that
 * reads `.length` of it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun, getRun, getSession, listSessions, RunRequestError, startRun } from '../../src/client/index.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A real server answering `body` with `type` and `status` to every request. */
async function serveEverywhere(body: string, type: string, status = 200): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const failure = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'answered', (e: unknown) => e);

describe('an answer that is not the runs routes\' own', () => {
  it('HTML for every path: each call says the answer is not JSON, naming the request', async () => {
    const base = await serveEverywhere('<!doctype html><html><body><div id="app"></div></body></html>', 'text/html');
    for (const call of [() => listSessions(base), () => getSession(base, 'ses_1'), () => getRun(base, 'run_1')]) {
      const error = await failure(call());
      expect(RunRequestError.isInstance(error)).toBe(true);
      const { status, message } = error as RunRequestError;
      expect(status).toBe(200);
      expect(message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/(sessions|runs)\S* answered 200: the answer is not JSON/);
      expect(message).toContain('<!doctype html>');
      expect(message).toContain('runsHandler');
    }
  });

  it('JSON of another shape: listSessions and getSession say what is missing', async () => {
    const base = await serveEverywhere('{"items":[],"total":0}', 'application/json');
    const list = await failure(listSessions(base));
    expect(RunRequestError.isInstance(list) && list.message).toContain('no "sessions" list');
    const one = await failure(getSession(base, 'ses_1'));
    expect(RunRequestError.isInstance(one) && one.message).toContain('no "messages" and "runs" lists');
  });

  it('startRun: a 201 without a runId and a sessionId is refused, so no request follows a run of no id', async () => {
    for (const body of ['{}', '{"runId":"","sessionId":"s"}', '{"runId":{"a":1},"sessionId":"s"}', 'null']) {
      const base = await serveEverywhere(body, 'application/json', 201);
      const error = await failure(startRun(base, { prompt: 'hi' }));
      expect(RunRequestError.isInstance(error) && error.message, body).toContain('the answer has no "runId" and "sessionId"');
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
  });

  it('fromRun of no run id errors naming it, before any request', async () => {
    const error = await failure(firstValueFrom(fromRun('http://127.0.0.1:9/api', undefined as unknown as string)));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/^runId must be an id the server gave, not undefined/);
  });
});
