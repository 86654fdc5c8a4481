import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const quiet = () => new ScriptedModel(() => ({ text: 'ok', delayMs: 50 }));

/** A raw request, for what fetch will not send (bad paths, bodies without a length). */
function raw(url: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string | Buffer; chunks?: number } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${path}`, { method, headers: init.headers ?? {} }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    if (init.chunks !== undefined) {
      // a body without content-length, chunk by chunk, well past any cap
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = (): void => {
        while (sent < init.chunks!) {
          sent += 1;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      request.on('error', () => undefined);
      pump();
    } else request.end(init.body);
  });
}

describe('runsHandler: bad requests are answered, with JSON { error }', () => {
  it('bad JSON, no prompt, an empty prompt, a non-object, bad field types, an unknown agent: 400', async () => {
    served = await serveRuns({ model: quiet() });
    const runs = `${served.url}/runs`;
    const cases: Array<[unknown, boolean, RegExp]> = [
      ['{"prompt": ', true, /^the body is not valid JSON: /],
      ['', true, /^the body is empty/],
      [{}, false, /^"prompt" must be a non-empty string, got nothing$/],
      [{ prompt: '   ' }, false, /^"prompt" must be a non-empty string/],
      [{ prompt: 42 }, false, /got 42$/],
      [[1, 2], false, /^the body must be a JSON object, got an array$/],
      ['null', true, /^the body must be a JSON object, got null$/],
      [{ prompt: 'hi', sessionId: 'a\nb' }, false, /^"sessionId" must be a string of 1 to 256 characters without control characters/],
      [{ prompt: 'hi', sessionId: 'x'.repeat(257) }, false, /^"sessionId" must be/],
      [{ prompt: 'hi', agentName: 'ghost' }, false, /unknown agent "ghost"/],
    ];
    for (const [body, rawBody, error] of cases) {
      const answer = await postJson(runs, body, { raw: rawBody });
      expect([answer.status, answer.headers.get('content-type')], JSON.stringify(body)).toEqual([400, 'application/json; charset=utf-8']);
      expect((answer.body as { error: string }).error, JSON.stringify(body)).toMatch(error);
    }
    expect(served.engine.runs.list()).toEqual([]);
  });

  it('a body not sent as application/json is 415 (a cross-site form cannot start runs or approve calls)', async () => {
    served = await serveRuns({ model: quiet() });
    const form = await postJson(`${served.url}/runs`, '{"prompt":"hi"}', { raw: true, contentType: 'text/plain' });
    expect(form.status).toBe(415);
    expect((form.body as { error: string }).error).toMatch(/content-type: application\/json/);
    const withCharset = await postJson(`${served.url}/runs`, { prompt: 'hi' }, { contentType: 'Application/JSON; charset=utf-8' });
    expect(withCharset.status).toBe(201);
  });

  it('every POST route is 415 unless sent as application/json, before it reads or looks anything up', async () => {
    served = await serveRuns({ model: quiet() });
    const routes = ['/runs', '/runs/run_x/approvals/approval_1', '/sessions/s/compact'];
    for (const route of routes) {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', '']) {
        const answer = await fetch(`${served.url}${route}`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body: contentType ? '{}' : null });
        expect(answer.status, `${route} ${contentType || 'no type'}`).toBe(415);
        expect(((await answer.json()) as { error: string }).error).toMatch(/content-type: application\/json/);
      }
    }
    // with the right type the same routes get as far as their own answers
    expect((await postJson(`${served.url}/runs/run_x/approvals/approval_1`, { decision: 'approve' })).status).toBe(404);
    expect(served.engine.runs.list()).toEqual([]);
  });

  it('a body nesting arrays 150,000 deep is 400, not a 500 from a stack overflow further on', async () => {
    served = await serveRuns({ model: quiet() });
    const deep = `{"prompt":"hi","sessionId":${'['.repeat(150_000)}${']'.repeat(150_000)}}`;
    const answer = await postJson(`${served.url}/runs`, deep, { raw: true });
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toBe('the body nests arrays and objects more than 100 deep');
    expect(served.engine.runs.list()).toEqual([]);
  });

  it('a huge body is 413: by its content-length, without reading it, or while reading a chunked one', async () => {
    served = await serveRuns({ model: quiet() }, { maxBodyBytes: 1000 });
    const big = JSON.stringify({ prompt: 'x'.repeat(2000) });
    const declared = await postJson(`${served.url}/runs`, big, { raw: true });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ error: 'the body is larger than 1000 bytes' });
    const chunked = await raw(served.url, 'POST', '/runs', { headers: { 'content-type': 'application/json' }, chunks: 200 }); // 12.5 MiB
    expect(chunked.status).toBe(413);
    expect(chunked.headers.connection).toBe('close');
    const approval = await postJson(`${served.url}/runs/run_x/approvals/c1`, big, { raw: true });
    expect(approval.status).toBe(413);
    expect(served.engine.runs.list()).toEqual([]);
    // the default cap is 1 MiB
    await served.close();
    served = await serveRuns({ model: quiet() });
    expect((await postJson(`${served.url}/runs`, { prompt: 'x'.repeat(1024 * 1024) })).status).toBe(413);
    expect((await postJson(`${served.url}/runs`, { prompt: 'x'.repeat(1000 * 1000) })).status).toBe(201);
  });

  it('an unknown run is 404 on every route; a busy session is 409', async () => {
    served = await serveRuns({ model: quiet() });
    const missing = [
      await fetch(`${served.url}/runs/run_nope`),
      await fetch(`${served.url}/runs/run_nope/events`),
      await fetch(`${served.url}/runs/run_nope`, { method: 'DELETE' }),
      await fetch(`${served.url}/runs/run_nope/approvals/c1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"decision":"approve"}' }),
    ];
    for (const answer of missing) {
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { error: string }).error).toMatch(/^unknown run "run_nope"/);
    }
    expect((await postJson(`${served.url}/runs`, { prompt: 'one', sessionId: 's' })).status).toBe(201);
    const busy = await postJson(`${served.url}/runs`, { prompt: 'two', sessionId: 's' });
    expect(busy.status).toBe(409);
    expect((busy.body as { error: string }).error).toMatch(/session "s"/);
  });

  it('approvals: a bad decision or task is 400; no pending approval is 404', async () => {
    served = await serveRuns({ model: quiet() });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'hi' })).body as { runId: string };
    const bad = await postJson(`${served.url}/runs/${runId}/approvals/c1`, { decision: 'yes' });
    expect(bad).toMatchObject({ status: 400, body: { error: '"decision" must be "approve", "reject" or "always", got "yes"' } });
    expect((await postJson(`${served.url}/runs/${runId}/approvals/c1`, { decision: 'reject', comment: 7 })).status).toBe(400);
    const none = await postJson(`${served.url}/runs/${runId}/approvals/c1`, { decision: 'approve' });
    expect(none).toMatchObject({ status: 404, body: { error: `no approval "c1" (of that task) is pending in run "${runId}"` } });
    expect((await postJson(`${served.url}/runs/${runId}/approvals/approval_x`, { decision: 'approve', taskId: 7 })).status).toBe(400);
  });

  it('path tricks and header injection name no run and reach no other route', async () => {
    served = await serveRuns({ model: quiet() });
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'hi' })).body as { runId: string };
    const tricks = [
      `/runs/..%2F`,
      `/runs/..%2F${runId}/events`,
      `/runs/${runId}%2Fevents`,
      `/runs/%0d%0aSet-Cookie:%20x=1/events`,
      `/runs/%E0%A4%A`,
      `/runs/${'a'.repeat(300)}`,
      `/runs/${runId}/events/extra`,
      `/runs//events`,
      `/runs/${runId}/approvals/`,
    ];
    for (const path of tricks) {
      const answer = await raw(served.url, 'GET', path);
      expect([answer.status, answer.headers['set-cookie']], path).toEqual([404, undefined]);
      expect(JSON.parse(answer.body), path).toEqual({ error: expect.any(String) });
    }
    const injected = await raw(served.url, 'POST', `/runs/${runId}/approvals/c%0d%0aX-Evil:%201`, { headers: { 'content-type': 'application/json' }, body: '{"decision":"approve"}' });
    expect([injected.status, injected.headers['x-evil']]).toEqual([404, undefined]);
    const lastEventId = await raw(served.url, 'GET', `/runs/${runId}/events`, { headers: { 'last-event-id': '-1' } });
    expect(lastEventId.status).toBe(400);
    expect((await raw(served.url, 'GET', `/runs/${runId}/events?after=1e3`)).status).toBe(400);
  });

  it('other methods are 405 with Allow', async () => {
    served = await serveRuns({ model: quiet() });
    const list = await fetch(`${served.url}/runs`);
    expect([list.status, list.headers.get('allow')]).toEqual([405, 'POST']);
    const put = await fetch(`${served.url}/runs/run_1`, { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, DELETE']);
    const post = await fetch(`${served.url}/runs/run_1/events`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
    expect(await post.json()).toEqual({ error: 'method POST is not allowed here; use GET' });
  });
});
