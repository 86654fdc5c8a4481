/**
 * The timeline's token line: agent names are the model's and the server's words, of any
 * length and number. Each is cut as a tree row cuts it, and only the agents that used the
 * most are named; the rest are counted. In Node for the line, in headless Chromium for the page.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/index.js';
import { LABEL_CHARS } from '../../../src/web/page/long-text.js';
import { TOKEN_AGENTS_SHOWN, tokenLine } from '../../../src/web/page/token-line.js';
import { HAS_CHROMIUM } from '../../support/chromium-per-file.js';
import { runEnd, wrap } from '../../support/event-fixtures.js';
import { SCRIPTED_RUN } from '../scripted-run-server.js';
import { scriptedPagePerTest } from './scripted-page.js';

describe('the token line', () => {
  it('names the agents that used the most, most first, and counts the rest', () => {
    const byAgent = new Map(Array.from({ length: TOKEN_AGENTS_SHOWN + 3 }, (_, i) => [`agent${i}`, i * 100] as const));
    const line = tokenLine(12_345, byAgent);
    expect(line).toMatch(/^Tokens: 12,345 for the run \(agent12 1,200, agent11 1,100, agent10 1,000, /);
    expect(line).toMatch(/agent3 300, and 3 more agents\)$/);
    expect(line).not.toContain('agent2 ');
    expect(tokenLine(7, new Map([['main', 7]]))).toBe('Tokens: 7 for the run (main 7)');
    expect(tokenLine(undefined, new Map([['main', 7]]))).toBe('');
  });

  it('cuts a name of a million characters as a tree row does', () => {
    const line = tokenLine(1, new Map([[`evil-${'x'.repeat(1_000_000)}`, 1]]));
    expect(line.length).toBeLessThan(LABEL_CHARS + 100);
    expect(line).toMatch(/^Tokens: 1 for the run \(evil-x+/);
  });
});

const openPage = scriptedPagePerTest();

describe.skipIf(!HAS_CHROMIUM)('the token line on the page', () => {
  it('a million-character agent name and 30 more agents: a short line', async () => {
    const names = [`evil-${'\u202E'}${'x'.repeat(1_000_000)}`, ...Array.from({ length: 30 }, (_, i) => `helper${i}`)];
    const children = names.flatMap((name, i): AgentEvent[] => {
      const frame = { parentRunId: SCRIPTED_RUN, taskId: `task_${i}`, taskIndex: i + 1, agentName: name };
      return [wrap({ type: 'RunStart', runId: `run_c${i}`, agentName: name, sessionId: 's', prompt: 'x' }, frame), wrap(runEnd(`run_c${i}`, name), frame)];
    });
    const start: AgentEvent = { type: 'RunStart', runId: SCRIPTED_RUN, agentName: 'main', sessionId: 's', prompt: 'p' };
    const page = await openPage([start, ...children, runEnd(SCRIPTED_RUN, 'main', 'END')]);
    await page.locator('#answer-text').filter({ hasText: 'END' }).waitFor({ timeout: 60_000 });
    const tokens = (await page.locator('#tokens').textContent())!;
    expect(tokens).toMatch(/^Tokens: /);
    expect(tokens).toMatch(/and \d+ more agents\)$/);
    expect(tokens.length).toBeLessThan(2_000);
  }, 120_000);
});
