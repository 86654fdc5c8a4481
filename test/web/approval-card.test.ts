import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { createGate } from '../support/deferred.js';
import { useDemoPages } from '../support/demo-pages.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { pressRun } from './page-login.js';

// Issue 22.6: the page's approval card shows what is approved, all of it: a write's content,
// not only its path; a long argument folded to its start with a "show all".

const pages = useDemoPages(10_000);

const LINES = Array.from({ length: 30 }, (_, i) => `SECRET_${i + 1}=value-${i + 1}`);

describe.skipIf(!HAS_CHROMIUM)('the approval card', () => {
  it('a write of .env shows its content, folded when long, every line behind "show all"', async () => {
    const { page, fixture } = await pages.open({
      main: steps({ toolCalls: [{ name: 'write', arguments: { path: '.env', content: LINES.join('\n') } }] }),
    });
    await pressRun(page, 'write the env file');
    const card = page.locator('#approvals .approval');
    await card.waitFor();

    expect(await card.locator('.who').textContent()).toBe('main wants to run write:');
    expect(await card.locator('.subject').textContent()).toBe('.env');
    const content = card.locator('.argument');
    expect(await content.locator('.name').textContent()).toBe(`content (30 lines, ${LINES.join('\n').length} characters):`);
    expect(await content.locator('.preview').textContent()).toBe(`${LINES.slice(0, 12).join('\n')}\n…`);
    expect(await content.locator('.preview').isVisible()).toBe(true);
    const full = content.locator('.full');
    expect(await full.isVisible()).toBe(false); // folded
    expect(await full.textContent()).toBe(LINES.join('\n'));

    await content.locator('summary.show-all').click();
    expect(await full.isVisible()).toBe(true);
    expect(await full.innerText()).toContain('SECRET_30=value-30');
    expect(await content.locator('.preview').isVisible()).toBe(false);

    await card.locator('button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
    expect(existsSync(join(fixture.workspace.dir, '.env'))).toBe(false);
  });

  it("two tasks whose calls share call_0 get a card each; Approve on task B's card runs B's command, not A's", async () => {
    const aWaits = createGate();
    const { page, fixture } = await pages.open({
      main: steps(multitaskReply([[1, 'general', 'do A', 'task A'], [2, 'general', 'do B', 'task B']])),
      '*': async (turn) => {
        const which = turn.prompt === 'do A' ? 'A' : 'B';
        if (turn.step > 1) return { text: `${which}: ${turn.toolResults.at(-1) ?? ''}` };
        if (which === 'B') await aWaits.promise; // A asks first: an answer by call id would reach A
        return { toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: `echo ran-${which} >> ran.txt` } }] };
      },
    });
    await pressRun(page, 'do A and B');
    await page.locator('#approvals .approval').first().waitFor();
    aWaits.open();
    await expect.poll(() => page.locator('#approvals .approval').count()).toBe(2);
    const cardOf = (task: string) => page.locator('#approvals .approval', { has: page.locator(`.who:text-is("general #${task} wants to run bash:")`) });
    expect(await cardOf('2').locator('.subject').textContent()).toBe('echo ran-B >> ran.txt');

    await cardOf('2').locator('button.approve').click();
    await cardOf('2').waitFor({ state: 'detached' });
    const ran = join(fixture.workspace.dir, 'ran.txt');
    await expect.poll(() => existsSync(ran)).toBe(true);
    expect(readFileSync(ran, 'utf8')).toBe('ran-B\n');
    expect(await cardOf('1').count()).toBe(1); // A still waits

    await cardOf('1').locator('button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
    expect(readFileSync(ran, 'utf8')).toBe('ran-B\n');
  });

  it('an approval nobody answers within approvalTimeoutMs is withdrawn from the page; the model reads why', async () => {
    const { page } = await pages.open({
      main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo never-approved' } }] }),
    }, { approvalTimeoutMs: 1_500 });
    await pressRun(page, 'run it');
    await page.locator('#approvals .approval').waitFor(); // shown while it waits...
    await page.locator('body[data-state="done"]').waitFor(); // ...and nobody answers
    expect(await page.locator('#approvals .approval').count()).toBe(0);
    expect(await page.locator('#approvals').isHidden()).toBe(true);
    expect(await page.locator('#answer-text').textContent()).toContain('timed out waiting for approval: nobody answered within 1.5 s');
  });
});
