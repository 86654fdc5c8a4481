import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoModel } from '../../src/demo/demo-model.js';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { openLoggedIn, pressRun } from './page-login.js';

const TASKS = ['explore #1 Map the layout', 'explore #2 Find the docs', 'general #3 Count TODO comments'];

const browser = chromiumPerFile();
let page: Page | undefined;
let demo: DemoServer | undefined;
let sandbox: CliSandbox | undefined;
let fixture: DelegationFixture | undefined;

/** A fresh page whose waits fail (naming what they waited for) before the test times out. */
async function newPage(): Promise<Page> {
  page = await (await browser()).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}
afterEach(async () => {
  await page?.context().close();
  await demo?.close();
  await sandbox?.cleanup();
  await fixture?.close();
  page = demo = sandbox = fixture = undefined;
});

/**
 * Page script recording every request the page makes in `window.requests` (`METHOD path`),
 * and how many responses are still being read in `window.openBodies`.
 */
const TRACK_REQUESTS = `
  window.requests = [];
  window.openBodies = 0;
  const realFetch = window.fetch;
  window.fetch = async (input, init) => {
    window.requests.push((init?.method ?? 'GET') + ' ' + new URL(String(input), location.href).pathname);
    const response = await realFetch(input, init);
    if (!response.body) return response;
    window.openBodies += 1;
    const reader = response.body.getReader();
    let open = true;
    const close = () => { if (open) { open = false; window.openBodies -= 1; } };
    const body = new ReadableStream({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) { close(); controller.close(); } else controller.enqueue(value);
        } catch (error) { close(); controller.error(error); }
      },
      cancel(reason) { close(); return reader.cancel(reason); },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };`;

/**
 * Page script recording, in `window.answerAtEnd`, the answer shown at the moment the page first
 * leaves `running` (a MutationObserver runs before the next animation frame, so a page that
 * says done before it draws the answer is caught every time, not only on a slow machine).
 */
const RECORD_ANSWER_AT_END = `
  window.answerAtEnd = null;
  new MutationObserver(() => {
    const state = document.body.dataset.state;
    if (window.answerAtEnd === null && state !== 'running' && state !== 'idle') window.answerAtEnd = document.getElementById('answer-text').textContent;
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-state'] });`;

/** Opens the page of a demo server on the offline demo model. */
async function openDemo(path: string): Promise<Page> {
  sandbox = await cliSandbox();
  demo = await startDemoServer({ port: 0, model: createDemoModel({ chunkDelayMs: 0 }), workspace: sandbox.workspace.dir, homeDir: sandbox.home });
  const p = await newPage();
  await p.addInitScript({ content: TRACK_REQUESTS });
  await p.addInitScript({ content: RECORD_ANSWER_AT_END });
  await openLoggedIn(p, demo.url, demo.token, path);
  return p;
}

/** Opens the page of a demo server whose main agent starts two tasks that never answer. */
async function openHangingRun(): Promise<Page> {
  fixture = await startDelegationFixture({
    main: steps(multitaskReply([[1, 'explore', 'look at a', 'Look at a'], [2, 'explore', 'look at b', 'Look at b']])),
    '*': () => ({ hang: true }),
  });
  demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
  const p = await newPage();
  await openLoggedIn(p, demo.url, demo.token);
  await pressRun(p);
  await p.locator('.task[data-status="running"]').nth(1).waitFor();
  await fixture.server.waitForRequests(3);
  return p;
}

/** Each task's row: "agent #index description". */
async function taskRows(p: Page): Promise<string[]> {
  const agents = await p.locator('.task > .row > .agent').allTextContents();
  const descriptions = await p.locator('.task > .row > .desc').allTextContents();
  return agents.map((agent, i) => `${agent} ${descriptions[i]}`);
}

/** Each task's `data-status`, in page order. */
async function taskStatuses(p: Page): Promise<Array<string | null>> {
  return Promise.all((await p.locator('.task').all()).map((task) => task.getAttribute('data-status')));
}

describe.skipIf(!HAS_CHROMIUM)('the demo page in headless Chromium', () => {
  it('Run runs the demo: three tasks reach done, then the final answer shows', async () => {
    const p = await openDemo('/');
    await pressRun(p);
    await p.locator('body[data-state="done"]').waitFor();
    expect(await taskRows(p)).toEqual(TASKS);
    expect(await taskStatuses(p)).toEqual(['done', 'done', 'done']);
    expect(await p.locator('.root').getAttribute('data-status')).toBe('done');
    const answer = await p.locator('#answer-text').textContent();
    expect(answer).toMatch(/^Survey complete\.\n1\. Map the layout: The workspace has 3 top-level entries/);
    expect(answer).toContain('3. Count TODO comments: Found 1 TODO/FIXME lines in src/');
    expect(await p.locator('#answer').isVisible()).toBe(true);
    expect(await p.evaluate('window.answerAtEnd')).toBe(answer);
    // one run started, one events request, and nothing still being read after the end (a
    // reconnection would be a second events request; it could never start a second run)
    const requests = (await p.evaluate('window.requests')) as string[];
    expect(requests.filter((r) => r === 'POST /api/runs')).toHaveLength(1);
    expect(requests.filter((r) => r.endsWith('/events'))).toHaveLength(1);
    await expect.poll(() => p.evaluate('window.openBodies')).toBe(0);
    expect(new URL(p.url()).searchParams.get('run')).toMatch(/^run_/); // a reload or a second tab shows the same run
    expect(await p.locator('.task .meta').first().textContent()).toMatch(/^\d+\.\ds · [\d,]+ tok · \d+ tool calls?$/);
  });

  it('the Run button streams the tree live: running tasks with their tool and text, then done', async () => {
    // the tasks' second model requests wait for the test, so the page holds a mid-run state
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fixture = await startDelegationFixture({
      main: steps({ text: 'Splitting the work in two.', ...multitaskReply([[1, 'explore', 'look at a', 'Look at a'], [2, 'explore', 'look at b', 'Look at b']]) }),
      '*': async (turn) => {
        if (turn.step === 1) return { text: `Looking at ${turn.prompt.slice(8)}.`, toolCalls: [{ name: 'list', arguments: { path: '.' } }] };
        await gate;
        return { text: `Finished ${turn.prompt}.` };
      },
    });
    demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
    const p = await newPage();
    await p.addInitScript({ content: RECORD_ANSWER_AT_END });
    await p.goto(demo.url);
    expect(await p.locator('body').getAttribute('data-state')).toBe('idle');
    expect(await p.locator('.node').count()).toBe(0);
    await pressRun(p, 'Look at a and b'); // typed: the page takes no click before the user's own input

    await fixture.server.waitForRequests(5); // main, then two steps of each task
    await p.locator('.task:nth-child(2) > .tail:text-is("Looking at b.")').waitFor();
    await p.locator('.task:nth-child(1) > .tail:text-is("Looking at a.")').waitFor();
    expect(await taskRows(p)).toEqual(['explore #1 Look at a', 'explore #2 Look at b']);
    expect(await taskStatuses(p)).toEqual(['running', 'running']);
    expect(await p.locator('.root > .row .desc').textContent()).toBe('Look at a and b');
    expect(await p.locator('.root > .tool').textContent()).toBe('⚙ multitask ×2');
    expect(await p.locator('.root > .tail').textContent()).toBe('Splitting the work in two.');
    expect(await p.locator('#answer').isHidden()).toBe(true);

    release();
    await p.locator('body[data-state="done"]').waitFor();
    expect(await p.locator('.task[data-status="done"]').count()).toBe(2);
    expect(await p.locator('.root > .tool').isHidden()).toBe(true);
    const answer = await p.locator('#answer-text').textContent();
    expect(answer).toMatch(/^final: /);
    expect(answer).toContain('Finished look at a.');
    expect(answer).toContain('Finished look at b.');
    expect(await p.evaluate('window.answerAtEnd')).toBe(answer);
  });

  it('closing the page leaves the run going; reopening its address shows it, and Stop there cancels it', async () => {
    const p = await openHangingRun();
    const address = p.url();
    expect(new URL(address).searchParams.get('run')).toMatch(/^run_/);
    await p.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fixture!.server.inFlight).toBe(2); // the tasks' requests go on
    const again = await newPage(); // another browser context: it logs in with the printed address first
    await openLoggedIn(again, demo!.url, demo!.token, new URL(address).search);
    await again.locator('.task[data-status="running"]').nth(1).waitFor();
    expect(await taskRows(again)).toEqual(['explore #1 Look at a', 'explore #2 Look at b']);
    await again.locator('#stop').click();
    await again.locator('body[data-state="cancelled"]').waitFor();
    const closed = await Promise.all([1, 2].map((i) => fixture!.server.waitForClosed(i)));
    expect(closed.map((r) => r.aborted)).toEqual([true, true]);
    expect(fixture!.server.inFlight).toBe(0);
  });

  it('Stop cancels the run: the tasks show as cancelled and their requests are aborted', async () => {
    const p = await openHangingRun();
    await p.locator('#stop').click();
    await p.locator('body[data-state="cancelled"]').waitFor();
    // cancelled only: none of them also shows as failed
    expect(await p.locator('.task[data-status="cancelled"] > .error').allTextContents()).toEqual(['stopped', 'stopped']);
    expect(await p.locator('.node[data-status="failed"]').count()).toBe(0);
    const closed = await Promise.all([1, 2].map((i) => fixture!.server.waitForClosed(i)));
    expect(closed.map((r) => r.aborted)).toEqual([true, true]);
    expect(await p.locator('#start').isEnabled()).toBe(true);
  });

  it('shows an abnormal end as a failed run with its error', async () => {
    fixture = await startDelegationFixture({ main: () => ({ status: 500, errorMessage: 'the model is down', headers: { 'x-should-retry': 'false' } }) });
    demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
    const p = await newPage();
    await openLoggedIn(p, demo.url, demo.token, '/?prompt=hello');
    await pressRun(p);
    await p.locator('body[data-state="failed"]').waitFor();
    expect(await p.locator('.root').getAttribute('data-status')).toBe('failed');
    expect(await p.locator('.root > .row > .desc').textContent()).toBe('hello');
    expect(await p.locator('#answer').getAttribute('class')).toBe('failed');
    expect(await p.locator('#answer-text').textContent()).toContain('the model is down');
  });
});
