import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../src/web/page/still-since.js';
import { HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { useDemoPages } from '../support/demo-pages.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { pressRun } from './page-login.js';
import { centre, pageTimePasses } from './trap-page.js';

// A card that appears under a resting pointer (the first one opening the section, or the next
// call's card taking the place of the one just answered) takes no click for SETTLE_MS: the
// second click of a double-click aimed at what was there before approves nothing. Time is the
// page's own clock: each click is pressed as soon as the card shows, well inside its 700 ms.

const pages = useDemoPages(10_000);

/** The main agent asks to run each of `commands` in turn (one call a step), then answers "done". */
const oneByOne = (commands: readonly string[]) => (turn: { step: number }) =>
  turn.step <= commands.length ? { toolCalls: [{ name: 'bash', arguments: { command: commands[turn.step - 1]! } }] } : { text: 'done' };

/** Presses the pointer on the Approve button of the card showing `command` as soon as it shows. */
async function pressOnAppearing(page: Page, command: string): Promise<void> {
  const approve = page.locator('#approvals .approval', { has: page.locator(`.subject:text-is("${command}")`) }).locator('button.approve');
  await approve.waitFor();
  const box = (await approve.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
}

describe.skipIf(!HAS_CHROMIUM)('approval cards appearing under the pointer', { timeout: 30_000 }, () => {
  it('the first card takes no click pressed as it appears, even released after it settled; a later click answers it', async () => {
    const { page, fixture } = await pages.open({ main: oneByOne(['touch marker']) });
    await pressRun(page, 'go');
    await pressOnAppearing(page, 'touch marker');
    await pageTimePasses(page, SETTLE_MS); // the button works again: the release makes a click on it
    await page.mouse.up();
    await page.locator('#approvals .approval .error', { hasText: 'This click was not taken: the card had just appeared or moved' }).waitFor();
    expect(await page.locator('#approvals .approval').count()).toBe(1);
    await page.locator('#approvals button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
    expect(existsSync(join(fixture.workspace.dir, 'marker'))).toBe(false);
  });

  it("a double-click on Approve answers the card under it, not the next call's card appearing in its place", async () => {
    const { page, fixture } = await pages.open({ main: oneByOne(['touch first', 'touch second']) });
    await pressRun(page, 'go');
    await page.locator('#approvals button.approve').waitFor();
    await pageTimePasses(page, SETTLE_MS); // the user read the first card
    const at = await centre(page, '#approvals button.approve');
    await page.mouse.click(at.x, at.y); // the first click of the double-click: approves `touch first`
    await pressOnAppearing(page, 'touch second'); // the second, where the first card was
    await page.mouse.up();
    await pageTimePasses(page, SETTLE_MS);
    await page.locator('#approvals button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
    expect(existsSync(join(fixture.workspace.dir, 'first'))).toBe(true);
    expect(existsSync(join(fixture.workspace.dir, 'second'))).toBe(false);
  });

  it("a task's Stop takes no click pressed as the cards' section opens and moves the tree down; a later one stops the task", async () => {
    let askB: () => void = () => undefined;
    const bMayAsk = new Promise<void>((resolve) => (askB = resolve));
    const { page } = await pages.open({
      main: steps(multitaskReply([[1, 'general', 'do A', 'task A'], [2, 'general', 'do B', 'task B']])),
      '*': async (turn) => {
        if (turn.prompt === 'do A') return { hang: true };
        if (turn.step > 1) return { text: 'B done' };
        await bMayAsk;
        return { toolCalls: [{ name: 'bash', arguments: { command: 'echo B' } }] };
      },
    });
    await pressRun(page, 'do A and B');
    const rowA = page.locator('.task', { has: page.locator('.desc:text-is("task A")') });
    await rowA.locator('button.stop-task:enabled').waitFor();
    await pageTimePasses(page, SETTLE_MS); // A's Stop has stood still: only the move below counts
    askB();
    await page.locator('#approvals button.approve').waitFor();
    const at = await centre(page, '.task:has(.desc:text-is("task A")) button.stop-task');
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await pageTimePasses(page, SETTLE_MS);
    await page.mouse.up();
    await pageTimePasses(page, SETTLE_MS);
    expect(await rowA.getAttribute('data-status')).toBe('running');
    await rowA.locator('button.stop-task').click();
    await page.locator('.task[data-status="cancelled"]', { has: page.locator('.desc:text-is("task A")') }).waitFor();
    await page.locator('#approvals button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
  });
});
