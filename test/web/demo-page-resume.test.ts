import type { Page } from 'playwright-core';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/web/demo-server.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { createGate, type Gate } from '../support/deferred.js';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy.js';
import { openLoggedIn, pressRun } from './page-login.js';

const browser = chromiumPerFile();
const pages: Page[] = [];
let demo: DemoServer | undefined;
let fixture: DelegationFixture | undefined;
let proxy: CuttingProxy | undefined;
afterEach(async () => {
  for (const page of pages.splice(0)) await page.context().close();
  await demo?.close();
  await proxy?.close();
  await fixture?.close();
  demo = fixture = proxy = undefined;
});

/** A page in a fresh browser context, logged in to the demo server (through `url`'s origin), showing `url`. */
async function newPage(url: string): Promise<Page> {
  const page = await (await (await browser()).newContext()).newPage();
  page.setDefaultTimeout(10_000);
  pages.push(page);
  const { origin, pathname, search } = new URL(url);
  await openLoggedIn(page, origin, demo!.token, `${pathname}${search}`);
  return page;
}

/** A main agent splitting the work in two; each task streams a step, lists, then waits for `gate`. */
async function twoTasksWaitingFor(gate: Gate): Promise<void> {
  fixture = await startDelegationFixture({
    main: steps({ text: 'Splitting the work in two.', ...multitaskReply([[1, 'explore', 'look at a', 'Look at a'], [2, 'explore', 'look at b', 'Look at b']]) }),
    '*': async (turn) => {
      if (turn.step === 1) return { text: `Looking at ${turn.prompt.slice(8)}.`, toolCalls: [{ name: 'list', arguments: { path: '.' } }] };
      await gate.promise;
      return { text: `Finished ${turn.prompt}.` };
    },
  });
  demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
}

/** Everything a page shows of the tree: each row, its status, tool, text and error. */
function treeOf(page: Page): Promise<string[]> {
  return page.locator('.node').evaluateAll((nodes) =>
    nodes.map((node) => ['.row .agent', '.row .desc', ':scope > .tool', ':scope > .tail', ':scope > .error']
      .map((part) => node.querySelector(part)?.textContent ?? '').concat(node.getAttribute('data-status') ?? '').join(' | ')),
  );
}

/** The answer the server's run ended with. */
async function serverAnswer(runId: string): Promise<string> {
  const events = await lastValueFrom(demo!.engine.runs.attach(runId).pipe(toArray()));
  return (events.at(-1)!.event as { text: string }).text;
}

const runIdOf = (page: Page): string => new URL(page.url()).searchParams.get('run')!;

describe.skipIf(!HAS_CHROMIUM)('the demo page: runs that outlive connections and tabs', () => {
  it('survives a dropped connection: it resumes and ends with the same answer; the server saw one run', async () => {
    const gate = createGate();
    await twoTasksWaitingFor(gate);
    proxy = await startCuttingProxy(demo!.url);
    const page = await newPage(`${proxy.url}?prompt=Look%20at%20a%20and%20b`);
    await pressRun(page);
    await fixture!.server.waitForRequests(5); // main, then two steps of each task
    await page.locator('.task:nth-child(2) > .tail:text-is("Looking at b.")').waitFor();
    proxy.cutAll(); // the network goes away mid-run
    gate.open();
    await page.locator('body[data-state="done"]').waitFor();
    expect(proxy.requests(/^GET \/api\/runs\/[^/]+\/events/)).toBeGreaterThanOrEqual(2); // it came back
    expect(proxy.requests(/^POST \/api\/runs /)).toBe(1);
    const answer = await page.locator('#answer-text').textContent();
    expect(answer).toBe(await serverAnswer(runIdOf(page)));
    expect(answer).toContain('Finished look at a.');
    expect(answer).toContain('Finished look at b.');
    expect(await page.locator('.task > .row .agent').allTextContents()).toEqual(['explore #1', 'explore #2']);
    expect(await page.locator('.task > .tail').allTextContents()).toEqual(['Finished look at a.', 'Finished look at b.']);
    expect(demo!.engine.runs.list()).toHaveLength(1);
    expect(fixture!.server.requests).toHaveLength(6); // main twice, each task twice: nothing ran again
  });

  it('a second page attached with ?run=<id> shows the same tree, live and at the end', async () => {
    const gate = createGate();
    await twoTasksWaitingFor(gate);
    const first = await newPage(new URL('/?prompt=Look%20at%20a%20and%20b', demo!.url).href);
    await pressRun(first);
    await fixture!.server.waitForRequests(5);
    await first.locator('.task:nth-child(2) > .tail:text-is("Looking at b.")').waitFor();
    const second = await newPage(new URL(`/?run=${runIdOf(first)}`, demo!.url).href);
    await second.locator('.task:nth-child(2) > .tail:text-is("Looking at b.")').waitFor();
    const strip = (rows: string[]) => rows.map((row) => row.replace(/\d+\.\ds/g, 'Ns'));
    expect(strip(await treeOf(second))).toEqual(strip(await treeOf(first)));
    expect(await second.locator('body').getAttribute('data-state')).toBe('running');
    gate.open();
    await Promise.all([first, second].map((p) => p.locator('body[data-state="done"]').waitFor()));
    expect(await treeOf(second)).toEqual(await treeOf(first));
    expect(await second.locator('#answer-text').textContent()).toBe(await first.locator('#answer-text').textContent());
    expect(fixture!.server.requests).toHaveLength(6);
  });

  it('shows a nested approval with Approve / Reject on every page attached; one answer decides it for all', async () => {
    fixture = await startDelegationFixture({
      main: steps(taskReply('general', 'run the command', 'Run the command')),
      '*': steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-in-page' } }] }),
    });
    demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
    const first = await newPage(demo.url);
    await pressRun(first);
    const card = first.locator('#approvals .approval');
    await card.waitFor();
    const second = await newPage(new URL(`/?run=${runIdOf(first)}`, demo.url).href);
    await second.locator('#approvals .approval').waitFor();
    for (const page of [first, second]) {
      expect(await page.locator('.approval .who').textContent()).toBe('general #1 wants to run bash:');
      expect(await page.locator('.approval .subject').textContent()).toBe('echo approved-in-page');
      expect(await page.locator('.task > .tool').textContent()).toBe('⚙ waiting for approval: bash');
    }
    await card.locator('button.approve').click();
    await Promise.all([first, second].map((p) => p.locator('body[data-state="done"]').waitFor()));
    for (const page of [first, second]) {
      expect(await page.locator('#approvals').isHidden()).toBe(true);
      expect(await page.locator('#answer-text').textContent()).toContain('approved-in-page');
    }
  });

  it('Reject sends the refusal: the call does not run and the model reads it', async () => {
    fixture = await startDelegationFixture({
      main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo never-ran' } }] }),
    });
    demo = await startDemoServer({ port: 0, model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home });
    const page = await newPage(demo.url);
    await pressRun(page);
    await page.locator('#approvals button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
    const answer = await page.locator('#answer-text').textContent();
    expect(answer).toMatch(/^final: ERROR: The bash call was rejected/);
    expect(answer).not.toContain('never-ran\n');
  });
});
