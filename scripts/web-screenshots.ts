/**
 * Regenerates the screenshots of docs/web.md (docs/images/web-*.png) with the browser tests'
 * Chromium (the npm-shipped one, see test/web/chromium.ts): a demo server on a scripted
 * model, a real page, real clicks. Run after `npm run build` (the page is served from dist/):
 *
 *   node --import tsx scripts/web-screenshots.ts
 *
 * Nothing here is drawn by hand: change the page, run this, commit the pictures.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ScriptedModel, type ScriptedResponder } from '../src/model/scripted-model.js';
import { startDemoServer } from '../src/web/demo-server.js';
import { launchChromium } from '../test/web/chromium.js';

const OUT = new URL('../docs/images/', import.meta.url);

/** A main agent that delegates three tasks, the second slower; then asks to run a command. */
function script(): ScriptedResponder {
  return ({ messages }) => {
    const prompt = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const steps = messages.length - messages.findLastIndex((m) => m.role === 'user') - 1;
    if (prompt.startsWith('Survey')) {
      if (steps === 0) {
        return {
          text: 'Three things to look at, in parallel.',
          toolCalls: [{ name: 'multitask', args: { tasks: [
            { index: 1, agent_name: 'explore', prompt: 'List the top-level folders', description: 'Map the layout' },
            { index: 2, agent_name: 'explore', prompt: 'Find the guides', description: 'Find the docs' },
            { index: 3, agent_name: 'explore', prompt: 'Count TODO comments', description: 'Count TODOs' },
          ] } }],
        };
      }
      return { text: 'The project has src/, test/ and docs/; twelve guides; one TODO.', chunkDelayMs: 10 };
    }
    if (prompt.startsWith('Clean')) {
      return steps === 0 ? { toolCalls: [{ name: 'bash', args: { command: 'rm -rf dist && npm run build' } }] } : { text: 'Rebuilt.' };
    }
    // the explore tasks: one tool call, then an answer
    if (steps === 0) return { toolCalls: [{ name: 'list', args: { path: '.' } }], delayMs: prompt.startsWith('Find') ? 600 : 200 };
    return { text: `Done: ${prompt.toLowerCase()}.`, chunkDelayMs: 20 };
  };
}

async function shoot(page: Page, name: string): Promise<void> {
  await writeFile(new URL(`web-${name}.png`, OUT), await page.screenshot({ fullPage: true }));
  console.log(`docs/images/web-${name}.png`);
}

const workspace = await mkdtemp(join(tmpdir(), 'rxharness-shots-'));
await mkdir(join(workspace, 'src'));
const demo = await startDemoServer({ port: 0, model: new ScriptedModel(script()), workspace, homeDir: workspace });
const browser = await launchChromium();
try {
  await mkdir(OUT, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(20_000);
  await page.goto(demo.url);
  await page.locator('#prompt').fill('Survey this project and report');
  await page.locator('#start').click();
  await page.locator('body[data-state="done"]').waitFor();
  await page.locator('.task').first().locator('.row').click(); // open the first task's tool calls
  await shoot(page, 'run');

  await page.locator('#prompt').fill('Clean and rebuild');
  await page.locator('#start').click();
  await page.locator('#approvals .approval').waitFor();
  await shoot(page, 'approval');
  await page.locator('#approvals button.reject').click();
  await page.locator('body[data-state="done"]').waitFor();
} finally {
  await browser.close();
  await demo.close();
  await rm(workspace, { recursive: true, force: true });
}
