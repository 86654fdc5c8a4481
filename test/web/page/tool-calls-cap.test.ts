/**
 * A task's list of tool calls draws its last {@link CALLS_SHOWN} calls, and earlier ones on
 * a click of "show earlier": all 20,000 at once took 30 s on the click that opened them. In
 * an in-memory document (`fake-dom.ts`), then on the page in headless Chromium.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ToolCallRecord } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { CALLS_SHOWN, ToolCallsView } from '../../../src/web/page/tool-calls-view.js';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { wrap } from '../../support/event-fixtures.js';
import { SCRIPTED_RUN } from '../scripted-run-server.js';
import { fakeDocument, type FakeElement } from './fake-dom.js';
import { scriptedPagePerTest } from './scripted-page.js';

const call = (i: number): ToolCallRecord => ({ callId: `c${i}`, toolName: 'read', args: { path: `f${i}` }, label: `read f${i}`, step: i, status: 'done', result: 'ok' });
const calls = (n: number) => Array.from({ length: n }, (_, i) => call(i));
/** The heads of the drawn calls, and the "show earlier" button's text while it shows. */
function drawn(view: ToolCallsView): { heads: string[]; earlier: string | undefined } {
  const root = view.root as FakeElement;
  const button = root.find('show-earlier')!;
  const heads = root.children.filter((li) => li.className === 'tool-call').map((li) => li.find('call-head')!.textContent!);
  return { heads, earlier: root.find('earlier-calls')!.hidden ? undefined : button.textContent! };
}
const heads = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `✔ read f${from + i} · step ${from + i}`);

describe('the list of a task with many calls', () => {
  beforeAll(() => vi.stubGlobal('document', fakeDocument));
  afterAll(() => vi.unstubAllGlobals());

  it('opened on 5,000 calls: the last 200, then 200 more for each "show earlier"', () => {
    const view = new ToolCallsView();
    view.draw({ tools: calls(5_000) });
    view.toggle();
    expect(drawn(view)).toEqual({ heads: heads(4_800, 5_000), earlier: 'Show 200 earlier calls (4,800 not shown)' });
    (view.root as FakeElement).find('show-earlier')!.click();
    expect(drawn(view)).toEqual({ heads: heads(4_600, 5_000), earlier: 'Show 200 earlier calls (4,600 not shown)' });
  });

  it('follows new calls while open: the window moves on, the first drawn ones go', () => {
    const view = new ToolCallsView();
    view.toggle();
    view.draw({ tools: calls(CALLS_SHOWN) });
    expect(drawn(view)).toEqual({ heads: heads(0, CALLS_SHOWN), earlier: undefined });
    view.draw({ tools: calls(CALLS_SHOWN + 2) });
    expect(drawn(view)).toEqual({ heads: heads(2, CALLS_SHOWN + 2), earlier: 'Show 2 earlier calls (2 not shown)' });
    const running = { ...call(CALLS_SHOWN + 2), status: 'running' as const, result: undefined };
    view.draw({ tools: [...calls(CALLS_SHOWN + 2), running] });
    expect(drawn(view).heads.at(-1)).toBe(`◐ read f${CALLS_SHOWN + 2} · step ${CALLS_SHOWN + 2}`);
    expect(drawn(view).heads).toHaveLength(CALLS_SHOWN);
  });
});

const openPage = scriptedPagePerTest();

describe.skipIf(!HAS_CHROMIUM)('the list of a task with many calls, on the page', () => {
  it('a task of 5,000 calls: its row opens on the last 200; "show earlier" adds 200', async () => {
    const frame = { parentRunId: SCRIPTED_RUN, taskId: 'task_1', taskIndex: 1 };
    const base = { runId: 'run_c1', agentName: 'explore', step: 1 };
    const events: AgentEvent[] = [{ type: 'RunStart', runId: 'run_c1', agentName: 'explore', sessionId: 's', prompt: 'x' }];
    for (let c = 0; c < 5_000; c++) {
      events.push({ type: 'ToolCallStart', ...base, callId: `c${c}`, toolName: 'read', args: { path: `f${c}` } });
      events.push({ type: 'ToolCallEnd', ...base, callId: `c${c}`, toolName: 'read', text: 'ok', durationMs: 1 });
    }
    const start: AgentEvent = { type: 'RunStart', runId: SCRIPTED_RUN, agentName: 'main', sessionId: 's', prompt: 'p' };
    const page = await openPage([start, ...events.map((event) => wrap(event, frame))]);
    await page.locator('#tree .task .meta', { hasText: '5,000 tool calls' }).waitFor({ timeout: 60_000 });
    await page.locator('#tree .task > .row').click();
    const items = page.locator('#tree .task .tool-call');
    await expect.poll(() => items.count()).toBe(CALLS_SHOWN);
    expect(await items.last().locator('.call-args').textContent()).toContain('"f4999"');
    await page.locator('#tree .task .show-earlier').click();
    await expect.poll(() => items.count()).toBe(2 * CALLS_SHOWN);
    expect(await items.first().locator('.call-args').textContent()).toContain('"f4600"');
  }, 120_000);
});
