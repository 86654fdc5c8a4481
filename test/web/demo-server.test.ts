import { afterEach, describe, expect, it } from 'vitest';
import { createDemoModel } from '../../src/demo/demo-model.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { isTaskWrap } from '../../src/events/guards.js';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { connect } from '../adapters/sse-client.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let sandbox: CliSandbox | undefined;
let demo: DemoServer | undefined;
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await demo?.close();
  await fake?.close();
  await sandbox?.cleanup();
  demo = fake = sandbox = undefined;
});

/** A demo server on a free port, on the offline demo model unless `fake` is set. */
async function start(): Promise<string> {
  sandbox = await cliSandbox();
  const model = fake ? openAIModelFor(fake) : createDemoModel({ chunkDelayMs: 0 });
  demo = await startDemoServer({ port: 0, model, workspace: sandbox.workspace.dir, homeDir: sandbox.home });
  return demo.url;
}

describe('startDemoServer: the page', () => {
  it('GET / answers one self-contained HTML page that loads nothing from elsewhere', async () => {
    const url = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("new EventSource('/events?prompt='"); // page.js is inlined
    expect(html).toContain('.children {'); // page.css is inlined
    expect(html).not.toMatch(/<script src|<link|https?:\/\//);
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const url = await start();
    const missing = await fetch(new URL('/app.js', url));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Not found: /app.js. The page is at /.\n');
    const post = await fetch(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
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

describe('startDemoServer: /events', () => {
  it('streams a whole run as server-sent events, then event: end', async () => {
    const url = await start();
    const client = await connect(`${url}events?prompt=${encodeURIComponent('Survey this project')}`);
    await client.ended;
    expect(client.headers['content-type']).toBe('text/event-stream');
    const events = client.messages.filter((m) => m.data !== undefined && m.event === undefined).map((m) => JSON.parse(m.data!) as AgentEvent);
    expect(events[0]).toMatchObject({ type: 'RunStart', agentName: 'main', prompt: 'Survey this project' });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    expect((events.at(-1) as { text: string }).text).toMatch(/^Survey complete\./);
    expect(new Set(events.filter(isTaskWrap).map((e) => e.taskId)).size).toBe(3);
    expect(client.messages.at(-1)).toEqual({ event: 'end', data: '{}' });
  });

  it('answers a missing prompt with event: error saying what to add', async () => {
    const url = await start();
    const client = await connect(`${url}events`);
    await client.ended;
    expect(client.messages).toEqual([
      { event: 'error', data: JSON.stringify({ name: 'Error', message: 'Add a prompt to the URL: /events?prompt=...' }) },
    ]);
  });

  it('aborts the run when the client disconnects', async () => {
    fake = await FakeOpenAIServer.start({ handler: () => ({ hang: true }) });
    const url = await start();
    const client = await connect(`${url}events?prompt=hi`);
    await fake.waitForRequests(1);
    client.disconnect();
    expect(await fake.waitForClosed(0)).toMatchObject({ aborted: true });
  });

  it('close() ends the open streams, which aborts their runs', async () => {
    fake = await FakeOpenAIServer.start({ handler: () => ({ hang: true }) });
    const url = await start();
    const client = await connect(`${url}events?prompt=hi`);
    await fake.waitForRequests(1);
    await demo!.close();
    expect(await fake.waitForClosed(0)).toMatchObject({ aborted: true });
    await expect(fetch(url)).rejects.toThrow();
    expect(client.messages.some((m) => m.event !== undefined)).toBe(false); // cut off, not ended
  });
});
