import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { FileOutcomeCache } from '../../src/subagent/skills/file-outcome-cache.js';
import { standardManager } from './skill-test-kit.js';
import { agentFile, tempWorkspaceAndHome } from './temp-agents.js';

// A SKILL.md written for another harness may say `allowed-tools: [read]`: read silently, the
// skill looks confined to reading while its agent keeps every tool. It loads, with a diagnostic.

const temp = tempWorkspaceAndHome();

async function managerWith(skillFrontMatter: string): Promise<AgentManager> {
  await temp.home.write({
    '.rxharness/agents/writer.md': agentFile('writer', 'skills: [s]\n'),
    '.rxharness/skills/s/SKILL.md': `---\nname: s\ndescription: The s skill.\n${skillFrontMatter}---\nSKILL BODY\n`,
  });
  return standardManager(temp);
}

describe('front matter keys of a skill that do nothing here', () => {
  it('"allowed-tools" and "model" are loaded without, each with a diagnostic saying so and what to set instead', async () => {
    const agents = await managerWith('allowed-tools: [read, grep]\nmodel: gpt-4o-mini\nlicense: MIT\n');
    const file = temp.home.join('.rxharness', 'skills', 's', 'SKILL.md');
    expect(agents.diagnostics()).toEqual([
      {
        file: temp.home.join('.rxharness', 'agents', 'writer.md'),
        reason: `skill "s" is loaded, but in ${file}: front matter key "allowed-tools" is not honoured: a skill cannot change which tools its agent has (the agent keeps every tool its definition gives it); narrow them with "tools" in the definition naming the skill`,
      },
      {
        file: temp.home.join('.rxharness', 'agents', 'writer.md'),
        reason: `skill "s" is loaded, but in ${file}: front matter key "model" is not honoured: the agent runs on its definition's model; set "model" in the definition naming the skill`,
      },
    ]);
    expect(agents.systemPromptOf(agents.require('writer'))).toContain('## Skill: s\n\nThe s skill.\n\nSKILL BODY');
  });

  it.each(['allowedTools', 'allowed_tools', 'Allowed-Tools', 'disallowed-tools'])('%j is one too', async (key) => {
    const agents = await managerWith(`${key}: [bash]\n`);
    expect(agents.diagnostics().map((d) => d.reason)).toEqual([expect.stringContaining(`front matter key "${key}" is not honoured: a skill cannot change which tools its agent has`)]);
  });

  it('a misspelt key gets a did-you-mean; keys of the Agent Skills format it does not use, and "__proto__", pass silently', async () => {
    const agents = await managerWith('descripton: typo\nmetadata: { a: 1 }\n__proto__: { polluted: true }\n');
    expect(agents.diagnostics().map((d) => d.reason)).toEqual([`skill "s" is loaded, but in ${temp.home.join('.rxharness', 'skills', 's', 'SKILL.md')}: unknown key "descripton" is ignored; did you mean "description"?`]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('lists at most four, and counts the rest in one more: a front matter of thousands of near misses is no flood', async () => {
    // "descripti" and two letters: each key at most two edits from "description", each a did-you-mean.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const near = [...letters].flatMap((a) => [...letters].map((b) => `descripti${a}${b}`)).filter((k) => k !== 'description');
    const agents = await managerWith(`allowed-tools: [read]\n${near.map((k) => `${k}: x`).join('\n')}\n`);
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons).toHaveLength(5);
    expect(reasons[0]).toContain('"allowed-tools" is not honoured');
    expect(reasons[1]).toContain(`unknown key "${near[0]}" is ignored; did you mean "description"?`);
    expect(reasons[4]).toMatch(new RegExp(`and ${near.length + 1 - 4} more front matter keys like these: remove them$`));
  });
});

describe('the bound on characters kept', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxharness-outcome-cache-'));
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  it('drops the least recently used until the rest fit, and keeps nothing larger than the bound', async () => {
    const cache = new FileOutcomeCache<string>({ entries: 100, chars: 10 });
    const files = await Promise.all(['a', 'b', 'c', 'd'].map(async (n) => {
      const file = join(dir, n);
      await writeFile(file, n.repeat(n === 'd' ? 11 : 4));
      return file;
    }));
    vi.setSystemTime(Date.now() + 60_000); // the files have settled (see SETTLED_MS)
    const read = (file: string): string => cache.get(file, file, () => readFileSync(file, 'utf8'), (s) => s.length);
    read(files[0]!);
    read(files[1]!);
    expect(cache.size).toBe(2);
    read(files[0]!); // a used last: b goes first
    read(files[2]!);
    expect(cache.size).toBe(2);
    const loads = cache.loads;
    expect(read(files[0]!)).toBe('aaaa');
    expect(cache.loads).toBe(loads);
    expect(read(files[1]!)).toBe('bbbb');
    expect(cache.loads).toBe(loads + 1);
    expect(read(files[3]!)).toBe('d'.repeat(11));
    expect(read(files[3]!)).toBe('d'.repeat(11));
    expect(cache.loads).toBe(loads + 3);
    expect(cache.size).toBe(2);
  });
});
