/**
 * Megabytes of model output on the page. A browser lays out all the text an element holds,
 * scrolled out of sight or not: a 4 MB command in an approval card's `<pre>` froze the page
 * for 9 s, and the answer box and a tool call's arguments alike. Past 100,000 characters the
 * page lays out only the start; every character stays there, behind "show all" (a closed
 * `<details>`, which costs nothing until opened). `innerText` is the text the browser lays
 * out; `textContent` is all the element holds. The stream comes from a scripted server,
 * behind the real built page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/index.js';
import { SHOWN_CHARS } from '../../../src/web/page/long-text.js';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { runEnd, wrap } from '../../support/event-fixtures.js';
import { SCRIPTED_RUN } from '../scripted-run-server.js';
import { scriptedPagePerTest } from './scripted-page.js';

const openPage = scriptedPagePerTest();

const base = { runId: SCRIPTED_RUN, agentName: 'main' };
const start: AgentEvent = { type: 'RunStart', ...base, sessionId: 's', prompt: 'go' };
/** Three million characters, on lines of 100. */
const BIG = `${'x'.repeat(99)}\n`.repeat(30_000);
const args = { command: BIG };
const call: AgentEvent = { type: 'ToolCallStart', ...base, step: 1, callId: 'c1', toolName: 'bash', args };

function open(events: readonly AgentEvent[], after?: string): Promise<Page> {
  return openPage(events, { ...(after === undefined ? {} : { after }), timeoutMs: 20_000 });
}

describe.skipIf(!HAS_CHROMIUM)('megabytes of text on the page (headless Chromium)', () => {
  it("an approval card lays out the start of a 3 MB command and keeps all of it behind \"show all\"; so does the row's call", async () => {
    const p = await open([start, call, { type: 'HITLPending', ...base, approvalId: 'a1', callId: 'c1', toolName: 'bash', args, reason: `rule ${BIG}` }]);
    const subject = p.locator('#approvals .approval .subject');
    await subject.waitFor();
    expect((await subject.innerText()).length).toBeLessThanOrEqual(SHOWN_CHARS + 100);
    expect(await subject.locator('details.all > .full').textContent()).toBe(BIG);
    expect(await subject.locator('details.all > summary').textContent()).toBe('show all (3,000,000 characters)');
    expect((await p.locator('#approvals .approval .reason').innerText()).length).toBeLessThanOrEqual(SHOWN_CHARS + 100);

    await p.locator('.root > .row').click();
    const callArgs = p.locator('.root .tool-call .call-args');
    await callArgs.waitFor();
    expect((await callArgs.innerText()).length).toBeLessThanOrEqual(SHOWN_CHARS + 100);
    expect(JSON.parse((await callArgs.locator('.full').textContent())!)).toEqual(args);
  });

  it('the answer box lays out the start of a 3 MB answer, all of it behind "show all"', async () => {
    const p = await open([start, runEnd(SCRIPTED_RUN, 'main', BIG)]);
    await p.locator('body[data-state="done"]').waitFor();
    const answer = p.locator('#answer-text');
    expect((await answer.innerText()).length).toBeLessThanOrEqual(SHOWN_CHARS + 100);
    expect(await answer.locator('.full').textContent()).toBe(BIG);
    // the start is its first 100,000 characters (none cut in half), then an ellipsis
    expect(await answer.locator('.preview').textContent()).toBe(`${BIG.slice(0, SHOWN_CHARS)}…`);
  });

  it("a task's 1 MB description is a label of 300 characters; a server's 1 MB error a status line of 2,000, on the rows it ends too", async () => {
    const child: AgentEvent = { type: 'RunStart', runId: 'run_c1', agentName: 'explore', sessionId: 's', prompt: 'look' };
    const task = { ...wrap(child, { parentRunId: SCRIPTED_RUN, taskId: 'task_1' }), taskDescription: `describe ${'d'.repeat(1_000_000)}` };
    const error = `event: error\ndata: ${JSON.stringify({ name: 'Broken', message: `gone ${'e'.repeat(1_000_000)}` })}\n\n`;
    const p = await open([start, task], error);
    await p.locator('body[data-state="failed"]').waitFor();
    const desc = await p.locator('.task > .row > .desc').innerText();
    expect(desc).toMatch(/^describe d+ \[\.\.\. \d+ characters cut \.\.\.\] d+$/);
    expect(desc.length).toBeLessThanOrEqual(300);
    const status = await p.locator('#status').innerText();
    expect(status).toMatch(/^Lost the run: .*gone e+ \[\.\.\. \d+ characters cut \.\.\.\] e+/);
    expect(status.length).toBeLessThanOrEqual(2_000);
    expect((await p.locator('.task > .error').innerText()).length).toBeLessThanOrEqual(2_000);
  });

  it('a conversation whose earlier answer is 3 MB lays out its start above the prompt, all of it behind "show all"', async () => {
    const page = await openPage([], { messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: BIG }], address: '?session=ses_1', timeoutMs: 20_000 });
    const turn = page.locator('#transcript .turn.assistant');
    await turn.waitFor();
    expect((await turn.innerText()).length).toBeLessThanOrEqual(SHOWN_CHARS + 100);
    expect(await turn.locator('.full').textContent()).toBe(BIG);
    expect(await page.locator('#transcript .turn.user').textContent()).toBe('go');
  });
});
