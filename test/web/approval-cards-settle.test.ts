import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { useDemoPages } from '../support/demo-pages.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { pressRun } from './page-login.js';

// Two calls wait for approval; when the first card goes away (decided here, in another tab,
// or timed out) the second moves up into its place. A second click aimed at the first card
// must not approve the second: its buttons stay disabled for SETTLE_MS (700 ms), then work.

const pages = useDemoPages(10_000);

describe.skipIf(!HAS_CHROMIUM)('approval cards moving up', () => {
  it('keep their buttons disabled for a moment after a card above them went away', async () => {
    const { page } = await pages.open({
      main: steps(multitaskReply([[1, 'general', 'do A', 'task A'], [2, 'general', 'do B', 'task B']])),
      '*': (turn) => {
        const which = turn.prompt === 'do A' ? 'A' : 'B';
        if (turn.step > 1) return { text: `${which} done` };
        return { toolCalls: [{ name: 'bash', arguments: { command: `echo ${which}` } }] };
      },
    });
    await pressRun(page, 'do A and B');
    const cards = page.locator('#approvals .approval');
    await expect.poll(() => cards.count()).toBe(2);
    const first = cards.nth(0);
    const firstSubject = (await first.locator('.subject').textContent())!;
    const second = page.locator('#approvals .approval', { hasNot: page.locator(`.subject:text-is("${firstSubject}")`) });
    await first.locator('button.reject').click();
    await page.locator('#approvals .approval', { has: page.locator(`.subject:text-is("${firstSubject}")`) }).waitFor({ state: 'detached' });
    // checked at once: the 700 ms have not passed (on the old page the buttons were never disabled)
    expect(await second.locator('button.approve').isDisabled()).toBe(true);
    await expect.poll(() => second.locator('button.approve').isDisabled(), { timeout: 5_000 }).toBe(false);
    await second.locator('button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
  });
});
