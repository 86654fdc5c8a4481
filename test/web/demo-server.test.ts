import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { isTaskWrap } from '../../src/events/guards.js';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { trustedHost } from '../../src/web/trusted-host.js';
import { oneTo, openEvents, postJson } from '../http/http-kit.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { useDemoServers } from '../support/demo-servers.js';
import type { FakeHandler } from '../support/fake-openai/types.js';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';

const servers = useDemoServers();
let demo: DemoServer | undefined;
let fake: FakeOpenAIServer | undefined;

/** A demo server on a free port, on the offline demo model unless `handler` is given (a fake server's). */
async function start(handler?: FakeHandler): Promise<string> {
  ({ demo, fake } = await servers.start({ fake: handler }));
  return demo.url;
}

/** The demo server's token as a Bearer header. */
const auth = (): Record<string, string> => ({ authorization: `Bearer ${demo!.token}` });

/** A GET with a chosen Host header (fetch will not send one). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('startDemoServer: the page', () => {
  it('GET / answers one self-contained HTML page that loads nothing from elsewhere', async () => {
    const url = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    const response = await fetch(new URL('/', url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('approval-list'); // the page's HTML
    expect(html).toContain('.children {'); // page.css is inlined
    expect(html).toMatch(/<script>\n\S/); // the bundled script is inlined
    expect(html.split('</script>')).toHaveLength(2); // and nothing in it ends the tag early
    expect(html).not.toMatch(/<script src|<link|https?:\/\//);
    expect(html).not.toContain('EventSource'); // the page follows runs with fromRun, which never restarts one
  });

  it('answers 404 for other paths and 405 for other methods; /events is gone', async () => {
    const url = await start();
    const missing = await fetch(new URL('/app.js', url), { headers: auth() });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Not found: /app.js. The page is at /.\n');
    expect((await fetch(new URL('/events?prompt=hi', url), { headers: auth() })).status).toBe(404);
    const post = await fetch(new URL('/', url), { method: 'POST', headers: auth() });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('answers only requests addressed to localhost (no DNS rebinding)', async () => {
    const url = new URL('/', await start()).href;
    const port = new URL(url).port;
    expect(await getWithHost(url, `localhost:${port}`)).toBe(200);
    expect(await getWithHost(url, `127.0.0.1:${port}`)).toBe(200);
    expect(await getWithHost(url, `evil.example:${port}`)).toBe(403);
    expect(await getWithHost(new URL('/api/runs/run_1', url).href, 'evil.example')).toBe(403);
    expect(trustedHost('[::1]:80')).toBe(true);
    expect(trustedHost('127.0.0.1.evil.example')).toBe(false);
    expect(trustedHost(undefined)).toBe(false);
  });

  it('rejects an invalid port with the allowed range', async () => {
    await expect(startDemoServer({ port: 70_000 })).rejects.toThrow('port must be a whole number from 0 to 65535 (0 = any free port), got 70000');
    await expect(startDemoServer({ port: 1.5 })).rejects.toThrow(RangeError);
  });

  it('rejects a port already in use', async () => {
    const url = await start();
    await expect(startDemoServer({ port: Number(new URL(url).port) })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('startDemoServer: the runs under /api', () => {
  it('starts a run and streams it as server-sent events, then event: end', async () => {
    const url = await start();
    const started = await postJson(new URL('/api/runs', url).href, { prompt: 'Survey this project' }, { headers: auth() });
    expect(started.status).toBe(201);
    const { runId } = started.body as { runId: string };
    const stream = await openEvents(new URL(`/api/runs/${runId}/events`, url).href, auth());
    await stream.ended;
    const events = stream.events();
    expect(events.map((e) => e.seq)).toEqual(oneTo(events.length));
    expect(events[0]!.event).toMatchObject({ type: 'RunStart', agentName: 'main', prompt: 'Survey this project' });
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false, text: expect.stringMatching(/^Survey complete\./) });
    expect(new Set(events.map((e) => e.event).filter(isTaskWrap).map((e) => e.taskId)).size).toBe(3);
    expect(stream.frames.at(-1)).toEqual({ event: 'end', data: '{}', id: String(events.length + 1) });
  });

  it('a client that disconnects leaves the run going', async () => {
    const url = await start(() => ({ hang: true }));
    const { runId } = (await postJson(new URL('/api/runs', url).href, { prompt: 'hi' }, { headers: auth() })).body as { runId: string };
    const stream = await openEvents(new URL(`/api/runs/${runId}/events`, url).href, auth());
    await fake!.waitForRequests(1);
    stream.disconnect();
    await stream.ended;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake!.inFlight).toBe(1);
    expect(demo!.engine.runs.get(runId)?.state).toBe('running');
  });

  it('close() cancels the runs (their streams say so), stops listening and leaves nothing behind', async () => {
    const baseline = resourceCounts();
    const url = await start(() => ({ hang: true }));
    const { runId } = (await postJson(new URL('/api/runs', url).href, { prompt: 'hi' }, { headers: auth() })).body as { runId: string };
    const stream = await openEvents(new URL(`/api/runs/${runId}/events`, url).href, auth());
    await fake!.waitForRequests(1);
    await demo!.close();
    expect(await fake!.waitForClosed(0)).toMatchObject({ aborted: true });
    await stream.ended;
    expect(stream.frames.at(-1)?.event).toBe('cancelled');
    await expect(fetch(url)).rejects.toThrow();
    await fake!.close();
    expect(await leakedResources(baseline)).toEqual({});
  });
});
