import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { MAX_SKILLS, standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { agentFile, TempDir } from './temp-agents.js';

// A cloned repository's definition may name thousands of skill folders, each up to 64 KiB and
// each read from disk at discovery and whenever a run of the agent starts.

let workspace: TempDir;
let home: TempDir;
beforeEach(async () => {
  workspace = await TempDir.create();
  home = await TempDir.create();
});
afterEach(async () => {
  await workspace.remove();
  await home.remove();
});

const manager = (): AgentManager =>
  new AgentManager({
    dirs: standardAgentDirs({ workspace: workspace.path, home: home.path }),
    skillDirs: standardSkillDirs({ workspace: workspace.path, home: home.path }),
  });
const skill = (name: string): string => `---\nname: ${name}\ndescription: Skill ${name}.\n---\nBody of ${name}.\n`;

describe('how many skills a definition loads', () => {
  it(`puts at most ${MAX_SKILLS} skills into the prompt and says which are left out`, async () => {
    const names = Array.from({ length: MAX_SKILLS + 5 }, (_, i) => `s${i}`);
    await workspace.write({
      '.rxharness/agents/big.md': agentFile('big', `skills: [${names.join(', ')}]\n`),
      ...Object.fromEntries(names.map((n) => [`.rxharness/skills/${n}/SKILL.md`, skill(n)])),
    });
    const agents = manager();
    const prompt = agents.systemPromptOf(agents.require('big'));
    expect(prompt.match(/## Skill: /g)).toHaveLength(MAX_SKILLS);
    expect(prompt).toContain(`## Skill: s${MAX_SKILLS - 1}\n`);
    expect(prompt).not.toContain(`## Skill: s${MAX_SKILLS}\n`);
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons).toEqual([`skill "s${MAX_SKILLS}" and the 4 after it are not loaded: a definition may name at most ${MAX_SKILLS} skills; name fewer`]);
  });

  it('looks up no more than that many of 20,000 names: one diagnostic, not 20,000', async () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `n${i.toString(36)}`);
    await workspace.write({ '.rxharness/agents/big.md': agentFile('big', `skills: ${names.join(',')}\n`) });
    const agents = manager();
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons).toHaveLength(MAX_SKILLS + 1);
    expect(reasons.filter((r) => r.startsWith('unknown skill'))).toHaveLength(MAX_SKILLS);
    expect(agents.systemPromptOf(agents.require('big'))).toBe('You are big.');
  });
});
