/**
 * A run of thousands of tasks on the page (a model can ask for them: `multitask` takes 200
 * at a time, and a step can call it many times). The page redraws every 250 ms so running
 * times move; with 10,000 tasks each such frame took seconds: the timeline rewrote every
 * lane (its bar's place moves as the chart's span grows), and the whole tree was laid out
 * again for the times of the running rows. Rows and lanes off screen are now skipped by the
 * browser (`content-visibility: auto`), a lane is written only when its task changes (the
 * span moves through CSS custom properties), and the chart draws 1,000 lanes at most.
 * The stream comes from a scripted server, behind the real built page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/index.js';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { runEnd, wrap } from '../../support/event-fixtures.js';
import { SCRIPTED_RUN } from '../scripted-run-server.js';
import { changesCounted, watchChanges } from './dom-changes.js';
import { scriptedPagePerTest } from './scripted-page.js';

const openPage = scriptedPagePerTest();

const start: AgentEvent = { type: 'RunStart', runId: SCRIPTED_RUN, agentName: 'main', sessionId: 's', prompt: 'split it' };

/** Task `i` of the run (1-based) starts; `done`: and ends. */
function task(i: number, done: boolean): AgentEvent[] {
  const frame = { parentRunId: SCRIPTED_RUN, taskId: `task_${i}`, taskIndex: i };
  const child: AgentEvent = { type: 'RunStart', runId: `run_c${i}`, agentName: 'explore', sessionId: 's', prompt: `look at ${i}` };
  return [wrap(child, frame), ...(done ? [wrap(runEnd(`run_c${i}`, 'explore'), frame)] : [])];
}

/** Opens the page on the scripted run of `events`, and waits for `rows` task rows. */
async function open(events: readonly AgentEvent[], rows: number): Promise<Page> {
  const page = await openPage(events, { timeoutMs: 30_000 });
  await expect.poll(() => page.locator('#tree .task').count(), { timeout: 30_000 }).toBe(rows);
  return page;
}

describe.skipIf(!HAS_CHROMIUM)('the page on a run of many tasks (headless Chromium)', () => {
  it("the clock's redraws leave a finished task's lane alone; a running task's bar still grows", async () => {
    const p = await open([start, ...task(1, true), ...task(2, false)], 2);
    await p.evaluate(watchChanges('done', '#timeline .lane[data-status="done"]'));
    await p.evaluate(watchChanges('clock', '.task[data-status="running"] > .row > .meta'));
    const running = p.locator('#timeline .lane[data-key$="/task_2"] .bar');
    const width = async (): Promise<number> => (await running.boundingBox())?.width ?? 0;
    const before = await width();
    // four redraws of the running row's time, and no event in between
    await expect.poll(() => changesCounted(p, 'clock')).toBeGreaterThanOrEqual(4);
    expect(await changesCounted(p, 'done')).toBe(0);
    await expect.poll(width).toBeGreaterThan(before);
  });

  it('rows and lanes far below the fold are skipped by the browser (neither laid out nor painted)', async () => {
    const p = await open([start, ...Array.from({ length: 300 }, (_, i) => task(i + 1, true)).flat()], 300);
    // checkVisibility says false for what content-visibility: auto skips
    const shown = (selector: string): Promise<boolean> =>
      p.locator(selector).evaluate((el) => (el as unknown as { checkVisibility(o: object): boolean }).checkVisibility({ contentVisibilityAuto: true }));
    expect(await shown('.task[data-key$="/task_1"] > .row')).toBe(true);
    expect(await shown('.task[data-key$="/task_300"] > .row')).toBe(false);
    expect(await shown('#timeline .lane[data-key$="/task_300"] > .label')).toBe(false);
  });

  it('the timeline draws 1,000 lanes at most and says how many more tasks there are; the tree lists them all', async () => {
    const p = await open([start, ...Array.from({ length: 1_200 }, (_, i) => task(i + 1, true)).flat()], 1_200);
    await expect.poll(() => p.locator('#timeline .more-lanes').textContent()).toBe('… and 201 more tasks, not drawn here (the tree lists every one)');
    expect(await p.locator('#timeline .lane').count()).toBe(1_000);
    expect(await p.locator('#timeline .lane').first().getAttribute('data-key')).toBe(SCRIPTED_RUN);
  });
});
