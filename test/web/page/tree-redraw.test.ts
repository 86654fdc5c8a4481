import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { useDemoPages } from '../../support/demo-pages.js';
import { multitaskReply, steps } from '../../support/delegation-script.js';
import { pressRun } from '../page-login.js';
import { changesCounted, watchChanges } from './dom-changes.js';

// The page redraws every 250 ms so running times move; a row whose task did not change since
// it was last drawn must be left alone (with thousands of tasks, rewriting each row each
// time kept the page busy), while a running task's time still moves.

const pages = useDemoPages(10_000);

describe.skipIf(!HAS_CHROMIUM)('the tree on the page, between events', () => {
  it("leaves a finished task's row alone while the clock redraws, and moves a running task's time", async () => {
    const { page } = await pages.open({
      main: steps(multitaskReply([[1, 'explore', 'look at a', 'Look at a'], [2, 'general', 'look at b', 'Look at b']])),
      '*': (turn) => (turn.prompt === 'look at a' ? { text: 'a is done' } : { hang: true }),
    });
    await pressRun(page, 'look at a and b');
    await page.locator('.task[data-status="done"]').waitFor();
    await page.locator('.task[data-status="running"]').waitFor();
    await page.evaluate(watchChanges('done', '.task[data-status="done"]'));
    await page.evaluate(watchChanges('running', '.task[data-status="running"] > .row > .meta'));
    await page.waitForTimeout(1_100); // four ticks of the clock, and no event
    expect(await changesCounted(page, 'done')).toBe(0);
    expect(await changesCounted(page, 'running')).toBeGreaterThan(0);
  });
});
