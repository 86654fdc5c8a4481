import { rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { SETTLED_MS } from '../../src/subagent/skills/file-outcome-cache.js';
import { readSkill, SKILL_TEXTS } from '../../src/subagent/skills/read-skill.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { agentFile, tempWorkspaceAndHome } from './temp-agents.js';

// Each child start puts its agent's skills into its prompt: up to 32 SKILL.md files, each a
// front matter of up to 64 KiB to parse (74 ms a start). A file unchanged since it was read is
// not read again; a changed, replaced or deleted one counts at the next start.

const temp = tempWorkspaceAndHome();

const skill = (name: string, body: string): string => `---\nname: ${name}\ndescription: Skill ${name}.\n---\n${body}\n`;
const skillFile = (name: string): string => temp.home.join('.rxharness', 'skills', name, 'SKILL.md');

/** A manager whose user definition "writer" names `skills`, and a start of that agent (its system prompt). */
async function agentNaming(skills: readonly string[]): Promise<{ agents: AgentManager; start: () => string }> {
  await temp.home.write({ '.rxharness/agents/writer.md': agentFile('writer', `skills: [${skills.join(', ')}]\n`) });
  const agents = new AgentManager({
    dirs: standardAgentDirs({ workspace: temp.workspace.path, home: temp.home.path }),
    skillDirs: standardSkillDirs({ workspace: temp.workspace.path, home: temp.home.path }),
  });
  return { agents, start: () => agents.systemPromptOf(agents.require('writer')) };
}

/** What `act` read from disk: how many SKILL.md files. */
function readsOf<T>(act: () => T): { value: T; reads: number } {
  const before = SKILL_TEXTS.loads;
  const value = act();
  return { value, reads: SKILL_TEXTS.loads - before };
}

describe('the SKILL.md files a child start reads', () => {
  it('reads each once: a later start with the files unchanged reads none and gets the same prompt', async () => {
    const names = ['s1', 's2', 's3'];
    await temp.home.write(Object.fromEntries(names.map((n) => [`.rxharness/skills/${n}/SKILL.md`, skill(n, `BODY ${n}`)])));
    const { start } = await agentNaming(names);
    temp.settled();
    const first = readsOf(start);
    expect(first.reads).toBe(3);
    for (const n of names) expect(first.value).toContain(`## Skill: ${n}\n\nSkill ${n}.\n\nBODY ${n}`);
    const again = readsOf(start);
    expect(again.reads).toBe(0);
    expect(again.value).toBe(first.value);
  });

  it('reads a file again when its content changed (same size, a new mtime)', async () => {
    await temp.home.write({ '.rxharness/skills/s/SKILL.md': skill('s', 'OLD TEXT') });
    const { start } = await agentNaming(['s']);
    temp.settled();
    expect(start()).toContain('OLD TEXT');
    const { mtime, atime } = await stat(skillFile('s'));
    await writeFile(skillFile('s'), skill('s', 'NEW TEXT'));
    await utimes(skillFile('s'), atime, new Date(mtime.getTime() + 10_000));
    temp.settled();
    const next = readsOf(start);
    expect(next.reads).toBe(1);
    expect(next.value).toContain('NEW TEXT');
    expect(next.value).not.toContain('OLD TEXT');
  });

  it('reads a replaced file again, even of the same size with the old mtime put back', async () => {
    // Whole seconds: the mtime put back is the very same, to the nanosecond.
    const then = new Date('2020-01-01T00:00:00Z');
    await temp.home.write({ '.rxharness/skills/s/SKILL.md': skill('s', 'OLD TEXT') });
    await utimes(skillFile('s'), then, then);
    const { start } = await agentNaming(['s']);
    temp.settled();
    expect(start()).toContain('OLD TEXT');
    const { size } = await stat(skillFile('s'));
    const swap = temp.home.join('swap.md');
    await writeFile(swap, skill('s', 'NEW TEXT'));
    await utimes(swap, then, then);
    expect(await stat(swap, { bigint: true })).toMatchObject({ size: BigInt(size), mtimeNs: (await stat(skillFile('s'), { bigint: true })).mtimeNs });
    await rename(swap, skillFile('s'));
    temp.settled();
    const next = readsOf(start);
    expect(next.reads).toBe(1);
    expect(next.value).toContain('NEW TEXT');
  });

  it('gives a deleted file or folder the diagnostic it would have had never read, and leaves the skill out', async () => {
    await temp.home.write({ '.rxharness/skills/s/SKILL.md': skill('s', 'GONE SOON'), '.rxharness/skills/t/SKILL.md': skill('t', 'GONE TOO') });
    const { agents, start } = await agentNaming(['s', 't']);
    temp.settled();
    expect(start()).toContain('GONE SOON');
    await rm(skillFile('s'));
    await rm(temp.home.join('.rxharness', 'skills', 't'), { recursive: true });
    expect(start()).not.toMatch(/GONE/);
    expect(agents.skillProblems(agents.require('writer'))).toEqual([
      `skill "s" is not loaded: ${temp.home.join('.rxharness', 'skills', 's')}: the skill folder has no SKILL.md`,
      `unknown skill "t": no ${temp.workspace.join('.rxharness', 'skills', 't', 'SKILL.md')} or ${temp.home.join('.rxharness', 'skills', 't', 'SKILL.md')}`,
    ]);
  });

  it('gives a broken file the same problem at every start without reading it again, and loads it once mended', async () => {
    await temp.home.write({ '.rxharness/skills/s/SKILL.md': '---\nname: s\n---\nNO DESCRIPTION\n' });
    const { agents, start } = await agentNaming(['s']);
    const problems = (): readonly string[] => agents.skillProblems(agents.require('writer'));
    temp.settled();
    const first = readsOf(problems);
    expect(first.value).toEqual([expect.stringMatching(/^skill "s" is not loaded: .*SKILL\.md: front matter needs a "description"/)]);
    const again = readsOf(problems);
    expect(again).toEqual({ value: first.value, reads: 0 });
    await writeFile(skillFile('s'), skill('s', 'MENDED'));
    await utimes(skillFile('s'), new Date(), new Date(Date.now() + 10_000));
    temp.settled();
    expect(start()).toContain('MENDED');
    expect(problems()).toEqual([]);
  });

  it('keeps at most 256 files, the least recently used going first, and reads a dropped one again, rightly', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `k${i}`);
    await temp.home.write(Object.fromEntries(names.map((n) => [`.rxharness/skills/${n}/SKILL.md`, skill(n, `BODY ${n}`)])));
    const dir = { path: temp.home.join('.rxharness', 'skills'), source: 'user' as const };
    temp.settled();
    for (const n of names) expect(readSkill(dir, n)?.body).toBe(`BODY ${n}`);
    expect(SKILL_TEXTS.size).toBe(256);
    const last = readsOf(() => readSkill(dir, 'k299'));
    expect(last.reads).toBe(0);
    const dropped = readsOf(() => readSkill(dir, 'k0'));
    expect(dropped.reads).toBe(1);
    expect(dropped.value?.body).toBe('BODY k0');
    expect(SKILL_TEXTS.size).toBe(256);
  });

  it(`reads again a file changed less than ${SETTLED_MS} ms before it was read: a rewrite in the same tick of the clock would keep its stamp`, async () => {
    await temp.home.write({ '.rxharness/skills/s/SKILL.md': skill('s', 'FRESH') });
    const { start } = await agentNaming(['s']);
    const { mtimeMs, ctimeMs } = await stat(skillFile('s'));
    vi.setSystemTime(Math.max(mtimeMs, ctimeMs) + SETTLED_MS / 2); // however long the write took on a busy machine
    expect(start()).toContain('FRESH');
    expect(readsOf(start).reads).toBe(1);
    temp.settled();
    expect(readsOf(start).reads).toBe(1); // settled now: kept
    expect(readsOf(start).reads).toBe(0);
  });
});
