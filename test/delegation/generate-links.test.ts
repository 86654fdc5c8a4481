import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { generateReply } from '../support/lifecycle-script.js';

// A save under .rxharness/ asks, as a write there does: a human approves it here.
const APPROVED = { approve: () => ({ decision: 'approve' as const }) };

// Item 11 of the hardening issue: `generate` with save_to_file must not write through a
// symbolic link planted under <workspace>/.rxharness/ to a place outside the workspace.

let f: DelegationFixture;
let outside: string;
beforeEach(async () => {
  outside = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-outside-')));
});
afterEach(async () => {
  await f.close();
  await rm(outside, { recursive: true, force: true });
});

const POET = { name: 'poet', description: 'Writes short poems.', system_prompt: testAgentPrompt('poet'), save_to_file: true };

/** Runs the main agent through one `generate` call and returns that call's ToolCallEnd. */
async function generate(engine: HarnessEngine) {
  f.route({ main: steps(generateReply(POET)) });
  const events = await collect(engine.stream('make an agent'));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return own(events, 'ToolCallEnd').find((e) => e.toolName === 'generate')!;
}

describe('generate save_to_file with links planted under .rxharness/', () => {
  const plantings: [string, (ws: string) => Promise<string>][] = [
    ['.rxharness -> outside', async (ws) => (await symlink(outside, join(ws, '.rxharness')), join(ws, '.rxharness'))],
    ['.rxharness/agents -> outside', async (ws) => (await mkdir(join(ws, '.rxharness')), await symlink(outside, join(ws, '.rxharness', 'agents')), join(ws, '.rxharness', 'agents'))],
    ['.rxharness/agents/poet.md -> outside/poet.md', async (ws) => (await mkdir(join(ws, '.rxharness', 'agents'), { recursive: true }), await symlink(join(outside, 'poet.md'), join(ws, '.rxharness', 'agents', 'poet.md')), join(ws, '.rxharness', 'agents', 'poet.md'))],
  ];

  for (const [name, plant] of plantings) {
    it(`${name}: refuses naming the link; no agent, nothing outside`, async () => {
      f = await startDelegationFixture();
      const link = await plant(f.workspace.dir);
      const engine = f.engine(APPROVED);
      const end = await generate(engine);
      expect(end.error).toContain('so no agent was created');
      expect(end.error).toContain(`${link} is a symbolic link to ${link.endsWith('.md') ? join(outside, 'poet.md') : outside}`);
      expect(end.error).toMatch(/remove the link/);
      expect(await engine.agents.get('poet')).toBeUndefined();
      expect(await readdir(outside)).toEqual([]);
      expect(existsSync(join(outside, 'agents'))).toBe(false);
    });
  }

  it('a link that stays inside the workspace is written through as before', async () => {
    f = await startDelegationFixture();
    const ws = f.workspace.dir;
    await mkdir(join(ws, 'definitions'));
    await mkdir(join(ws, '.rxharness'));
    await symlink('../definitions', join(ws, '.rxharness', 'agents'));
    const engine = f.engine(APPROVED);
    const end = await generate(engine);
    expect(end.error).toBeUndefined();
    expect(await readdir(join(ws, 'definitions'))).toEqual(['poet.md']);
  });
});
