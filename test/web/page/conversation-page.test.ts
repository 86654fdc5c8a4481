/**
 * The page as an app (issue 26), in the npm-shipped headless Chromium against a real engine on
 * the fake OpenAI server: conversations that continue (also after a reload mid-run), a stop
 * button per task (running or queued; the others go on), Always on an approval card, and a
 * timeline with one bar per task.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { turnOf, type AgentRoute, type DelegationFixture } from '../../support/delegation-fixture.js';
import { createGate } from '../../support/deferred.js';
import { useDemoPages } from '../../support/demo-pages.js';
import { multitaskReply, steps } from '../../support/delegation-script.js';
import { pressRun } from '../page-login.js';

const pages = useDemoPages(15_000);
/** The fixture of the test's page (its fake server's requests). */
let fixture: DelegationFixture | undefined;

/** A page on a demo server whose model is the fake server answering `routes`. */
async function openPage(routes: Record<string, AgentRoute>, engine: Partial<HarnessEngineOptions> = {}): Promise<Page> {
  const opened = await pages.open(routes, engine);
  fixture = opened.fixture;
  return opened.page;
}

/** An attribute of every element a locator finds, in page order. */
async function attributes(p: Page, selector: string, name: string): Promise<Array<string | null>> {
  return Promise.all((await p.locator(selector).all()).map((element) => element.getAttribute(name)));
}
const statuses = (p: Page) => attributes(p, '.task', 'data-status');
const THREE = multitaskReply([[1, 'explore', 'job one', 'One'], [2, 'explore', 'job two', 'Two'], [3, 'explore', 'job three', 'Three']]);

describe.skipIf(!HAS_CHROMIUM)('the page as an app', () => {
  it('two turns in one conversation: the second request carries the first; the side list and transcript show it', async () => {
    const p = await openPage({ main: (turn) => ({ text: turn.prompt === 'Remember 7' ? 'Noted: 7.' : 'It was 7.' }) });
    await pressRun(p, 'Remember 7');
    await p.locator('body[data-state="done"]').waitFor();
    await pressRun(p, 'What number?');
    await p.locator('body[data-state="done"]').waitFor();
    const second = fixture!.requestsOf('main')[1]!.body.messages!.map((m) => m.content);
    expect(second).toEqual(expect.arrayContaining(['Remember 7', 'Noted: 7.', 'What number?']));
    expect(await p.locator('#transcript .turn').allTextContents()).toEqual(['Remember 7', 'Noted: 7.']);
    expect(await p.locator('#answer-text').textContent()).toBe('It was 7.');
    await expect.poll(() => p.locator('.session .title').allTextContents()).toEqual(['Remember 7']);
    expect(new URL(p.url()).searchParams.get('session')).toMatch(/^ses_/);

    await p.locator('#new-conversation').click();
    await pressRun(p, 'Something else');
    await p.locator('body[data-state="done"]').waitFor();
    expect(fixture!.requestsOf('main')[2]!.body.messages!.map((m) => m.content)).not.toContain('Remember 7');
    await expect.poll(() => p.locator('.session .title').allTextContents()).toEqual(['Something else', 'Remember 7']);
    await p.locator('.session', { hasText: 'Remember 7' }).click(); // open the first one again
    await expect.poll(() => p.locator('#transcript .turn').allTextContents()).toEqual(['Remember 7', 'Noted: 7.', 'What number?', 'It was 7.']);
  });

  it('a reload mid-run shows the run again; it finishes and the conversation goes on', async () => {
    const gate = createGate();
    const p = await openPage({
      main: (turn) => (turn.prompt === 'Delegate' ? steps(multitaskReply([[1, 'explore', 'slow job', 'Slow']]))(turn) : { text: `answer to ${turn.prompt}` }),
      '*': async () => {
        await gate.promise;
        return { text: 'slow job done' };
      },
    });
    await pressRun(p, 'Delegate');
    await p.locator('.task[data-status="running"]').waitFor();
    await p.reload();
    await p.locator('.task[data-status="running"]').waitFor();
    expect(await p.locator('body').getAttribute('data-state')).toBe('running');
    gate.open();
    await p.locator('body[data-state="done"]').waitFor();
    await pressRun(p, 'And then?');
    await p.locator('body[data-state="done"]').waitFor();
    expect(fixture!.requestsOf('main').at(-1)!.body.messages!.map((m) => m.content)).toContain('Delegate');
  });

  it('the stop button of one of three running tasks cancels it; the other two finish', async () => {
    const gate = createGate();
    const p = await openPage({
      main: steps(THREE),
      '*': async (turn) => {
        await gate.promise;
        return { text: `${turn.prompt} done` };
      },
    });
    await pressRun(p, 'Split it');
    await expect.poll(() => statuses(p)).toEqual(['running', 'running', 'running']);
    await fixture!.server.waitForRequests(4);
    await p.locator('.task').nth(1).locator('button.stop-task').click();
    await expect.poll(() => statuses(p)).toEqual(['running', 'cancelled', 'running']);
    gate.open();
    await p.locator('body[data-state="done"]').waitFor();
    expect(await statuses(p)).toEqual(['done', 'cancelled', 'done']);
    expect(await p.locator('.task button.stop-task:visible').count()).toBe(0); // nothing left to stop
  });

  it('a queued task stopped before it starts never runs; the running one finishes', async () => {
    const gate = createGate();
    const p = await openPage(
      {
        main: steps(multitaskReply([[1, 'explore', 'first job', 'First'], [2, 'explore', 'second job', 'Second']])),
        '*': async (turn) => {
          await gate.promise;
          return { text: `${turn.prompt} done` };
        },
      },
      { multitaskMaxTasks: 1 },
    );
    await pressRun(p, 'Two, one at a time');
    await expect.poll(() => statuses(p)).toEqual(['running', 'queued']);
    await p.locator('.task[data-status="queued"] button.stop-task').click();
    await expect.poll(() => statuses(p)).toEqual(['running', 'cancelled']);
    gate.open();
    await p.locator('body[data-state="done"]').waitFor();
    expect(await statuses(p)).toEqual(['done', 'cancelled']);
    const prompts = fixture!.server.requests.map((r) => turnOf(r).prompt);
    expect(prompts).toContain('first job');
    expect(prompts).not.toContain('second job'); // the stopped one never asked the model
  });

  it('Always on a card: the same command runs again without a second card; the row lists both calls and the decision', async () => {
    const p = await openPage({
      main: steps(
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }] },
        { text: 'Ran it twice.' },
      ),
    });
    // counts every approval card the page ever shows
    await p.evaluate(`window.cards = 0; new MutationObserver((changes) => {
      for (const change of changes) for (const node of change.addedNodes) if (node.classList?.contains('approval')) window.cards += 1;
    }).observe(document.getElementById('approval-list'), { childList: true });`);
    await pressRun(p, 'Run echo twice');
    await p.locator('#approvals .approval button.always').click();
    await p.locator('body[data-state="done"]').waitFor();
    expect(await p.evaluate('window.cards')).toBe(1);
    await p.locator('.root > .row').click(); // opens the run's tool calls
    const calls = p.locator('.root > .tool-calls > .tool-call');
    expect(await calls.count()).toBe(2);
    expect(await calls.nth(0).locator('.call-approval').textContent()).toMatch(/^approved · asked because: /);
    expect(await calls.nth(1).locator('.call-approval').count()).toBe(0);
    expect(await attributes(p, '.root > .tool-calls > .tool-call', 'data-status')).toEqual(['done', 'done']);
    expect(await calls.nth(0).locator('.call-result').textContent()).toContain('hi');
  });

  it('the timeline draws one bar per task, coloured by its state, beside the tokens per agent', async () => {
    const p = await openPage({ main: steps(THREE), '*': (turn) => ({ text: `${turn.prompt} done` }) });
    await pressRun(p, 'Split it');
    await p.locator('body[data-state="done"]').waitFor();
    const lanes = p.locator('#timeline .lane');
    expect(await lanes.count()).toBe(4); // the run and its three tasks
    expect(await attributes(p, '#timeline .bar', 'data-status')).toEqual(['done', 'done', 'done', 'done']);
    for (const bar of await p.locator('#timeline .bar').all()) expect((await bar.boundingBox())?.width).toBeGreaterThan(0);
    expect(await p.locator('#timeline .label').allTextContents()).toEqual(['main', 'explore #1', 'explore #2', 'explore #3']);
    expect(await p.locator('#tokens').textContent()).toMatch(/^Tokens: [\d,]+ for the run \(main [\d,]+, explore [\d,]+\)$/);
  });
});
