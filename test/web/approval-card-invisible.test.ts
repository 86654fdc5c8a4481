import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { useDemoPages } from '../support/demo-pages.js';
import { steps } from '../support/delegation-script.js';
import { pressRun } from './page-login.js';

// The page's approval card shows what will run as it will run, as the terminal's question
// does: a bidi override in a path (`.env<RLO>txt.sh` displays as `.envhs.txt`), a zero-width
// space or a `\r` in a content would otherwise make the card read as something else than
// what Approve runs. Each is marked as `<U+XXXX>`; line breaks stay line breaks.

const pages = useDemoPages(10_000);

describe.skipIf(!HAS_CHROMIUM)('the approval card and invisible characters', () => {
  it("marks bidi overrides, zero-width characters and carriage returns in the subject and the arguments, on the card and in the row's tool calls", async () => {
    const path = '.env\u202Etxt.sh';
    const content = 'A=1\u200B\r\nB=2\u2066';
    const { page, fixture } = await pages.open({ main: steps({ toolCalls: [{ name: 'write', arguments: { path, content } }] }) });
    await pressRun(page, 'write it');
    const card = page.locator('#approvals .approval');
    await card.waitFor();

    expect(await card.locator('.subject').textContent()).toBe('.env<U+202E>txt.sh');
    expect(await card.locator('.argument .name').textContent()).toBe('content:');
    expect(await card.locator('.argument .value').textContent()).toBe('A=1<U+200B><U+000D>\nB=2<U+2066>');
    expect(await card.locator('.who').textContent()).toBe('main wants to run write:');
    // the row's tool calls, opened while the card waits, show the arguments marked too
    await page.locator('#tree .node.root > .row').click();
    expect(await page.locator('#tree .tool-call .call-args').textContent()).toBe(
      '{\n  "path": ".env<U+202E>txt.sh",\n  "content": "A=1<U+200B>\\r\\nB=2<U+2066>"\n}',
    );

    await card.locator('button.reject').click();
    await page.locator('body[data-state="done"]').waitFor();
    expect(existsSync(fixture.workspace.dir) && readdirSync(fixture.workspace.dir).includes(path)).toBe(false);
  });
});
