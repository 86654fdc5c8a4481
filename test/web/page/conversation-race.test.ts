/**
 * Answers that come back in another order than asked (the page in headless Chromium, on a
 * server whose conversation answers the test holds and lets go): an answer about a
 * conversation the user has since left must not take over the page, and Run goes to the
 * conversation the user saw when pressing it.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/index.js';
import { loadDemoPage } from '../../../src/web/demo-page.js';
import { PAGE_HEADERS } from '../../../src/web/serve-headers.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { createGate, type Gate } from '../../support/deferred.js';
import { runEnd } from '../../support/event-fixtures.js';
import { pressRun } from '../page-login.js';

const browser = chromiumPerFile();
let page: Page | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await page?.context().close();
  await close?.();
  page = close = undefined;
});

/** What the test's server saw, and the answers it holds until the test lets them go. */
interface RaceServer {
  readonly origin: string;
  /** The bodies of `POST /api/runs`. */
  readonly started: Array<{ prompt: string; sessionId?: string }>;
  /** The paths asked for. */
  readonly asked: string[];
  /** Holds the `n`th answer (from 1) about conversation `id` until the gate opens. */
  hold(id: string, n: number, gate: Gate): void;
}

const conversation = (id: string) => ({ sessionId: id, title: id, runs: [], messages: [{ role: 'user', content: `PROMPT OF ${id}` }, { role: 'assistant', content: `ANSWER OF ${id}` }] });
const finishedRun: AgentEvent[] = [{ type: 'RunStart', runId: 'run_B', agentName: 'main', sessionId: 'ses_B', prompt: 'earlier' }, runEnd('run_B')];

async function startServer(): Promise<RaceServer> {
  const html = await loadDemoPage();
  const held = new Map<string, Gate>();
  const counts = new Map<string, number>();
  const streams = new Set<ServerResponse>();
  const started: RaceServer['started'] = [];
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    asked.push(path);
    const json = (value: unknown, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const session = /^\/api\/sessions\/(ses_\w+)$/.exec(path)?.[1];
    if (path === '/') return void res.writeHead(200, { ...PAGE_HEADERS, 'content-security-policy': html.csp }).end(html.html);
    if (path === '/api/sessions') return json({ sessions: ['ses_A', 'ses_B'].map((id) => ({ sessionId: id, title: id, lastActivityAt: 1, createdAt: 1, runCount: 1 })) });
    if (session !== undefined) {
      const n = (counts.get(session) ?? 0) + 1;
      counts.set(session, n);
      return void (held.get(`${session}#${n}`)?.promise ?? Promise.resolve()).then(() => json(conversation(session)));
    }
    if (path === '/api/runs' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const input = JSON.parse(body) as RaceServer['started'][number];
        started.push(input);
        json({ runId: 'run_new', sessionId: input.sessionId ?? 'ses_new' }, 201);
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (path === '/api/runs/run_B/events') return void res.end(finishedRun.map((event, i) => `id: ${i + 1}\ndata: ${JSON.stringify({ runId: 'run_B', seq: i + 1, event })}\n\n`).join(''));
    streams.add(res); // any other run: still going
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise<void>((resolve) => {
    for (const res of streams) res.destroy();
    server.close(() => resolve());
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, started, asked, hold: (id, n, gate) => held.set(`${id}#${n}`, gate) };
}

/** Lets a held answer about `id` go and waits until the page has had it (its body read, then a turn of the page's event loop). */
async function release(p: Page, id: string, gate: Gate): Promise<void> {
  const answered = p.waitForResponse((response) => response.url().endsWith(`/api/sessions/${id}`));
  gate.open();
  await (await answered).finished();
  await p.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
}

/** What the page shows as the open conversation: the transcript, the address, the list's mark. */
async function shown(p: Page): Promise<{ transcript: string[]; address: string; current: string[] }> {
  return {
    transcript: await p.locator('#transcript .turn').allTextContents(),
    address: new URL(p.url()).search,
    current: await p.locator('#session-list .session.current .title').allTextContents(),
  };
}
const showing = (id: string) => ({ transcript: [`PROMPT OF ${id}`, `ANSWER OF ${id}`], address: `?session=${id}`, current: [id] });

describe.skipIf(!HAS_CHROMIUM)('answers in another order than asked', () => {
  it('A clicked, then B; A answers last: the page stays on B, and Run continues B', async () => {
    const server = await startServer();
    const slowA = createGate();
    server.hold('ses_A', 1, slowA);
    page = await (await (await browser()).newContext()).newPage();
    await page.goto(`${server.origin}/`);
    await page.locator('.session[data-session-id="ses_A"]').click();
    await page.locator('.session[data-session-id="ses_B"]').click();
    await expect.poll(() => shown(page!)).toEqual(showing('ses_B'));
    await release(page, 'ses_A', slowA);
    expect(await shown(page)).toEqual(showing('ses_B'));
    await pressRun(page, 'continue please');
    await expect.poll(() => server.started).toEqual([{ prompt: 'continue please', sessionId: 'ses_B' }]);
  });

  it('Run pressed in B, then A opened before B answers: the run goes to B, the page stays on A and follows no run of B', async () => {
    const server = await startServer();
    const slowB = createGate();
    server.hold('ses_B', 2, slowB); // the first opens B; the second is Run's, after B's run
    page = await (await (await browser()).newContext()).newPage();
    await page.goto(`${server.origin}/?session=ses_B&run=run_B`);
    await page.locator('body[data-state="done"]').waitFor();
    await pressRun(page, 'next in B');
    await expect.poll(() => server.asked.filter((path) => path === '/api/sessions/ses_B').length).toBe(2);
    await page.locator('.session[data-session-id="ses_A"]').click();
    await expect.poll(() => shown(page!)).toEqual(showing('ses_A'));
    await release(page, 'ses_B', slowB);
    await expect.poll(() => server.started).toEqual([{ prompt: 'next in B', sessionId: 'ses_B' }]);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(await shown(page)).toEqual(showing('ses_A'));
    expect(server.asked).not.toContain('/api/runs/run_new/events');
  });

  it('Run right after opening a conversation sends it without fetching the transcript again', async () => {
    const server = await startServer();
    page = await (await (await browser()).newContext()).newPage();
    await page.goto(`${server.origin}/?session=ses_A`);
    await expect.poll(() => shown(page!)).toEqual(showing('ses_A'));
    await pressRun(page, 'more');
    await expect.poll(() => server.started).toEqual([{ prompt: 'more', sessionId: 'ses_A' }]);
    expect(server.asked.filter((path) => path === '/api/sessions/ses_A')).toHaveLength(1);
  });
});
