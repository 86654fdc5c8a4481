import { describe, expect, it } from 'vitest';
import { MAX_SKILLS } from '../../src/subagent/skills/skill.js';
import { goodSkill, standardManager } from './skill-test-kit.js';
import { agentFile, tempWorkspaceAndHome } from './temp-agents.js';

// A cloned repository's definition may name thousands of skill folders, each up to 64 KiB and
// each read from disk at discovery and whenever a run of the agent starts.

const temp = tempWorkspaceAndHome();

const manager = () => standardManager(temp);
const skill = goodSkill;

describe('how many skills a definition loads', () => {
  it(`puts at most ${MAX_SKILLS} skills into the prompt and says which are left out`, async () => {
    const names = Array.from({ length: MAX_SKILLS + 5 }, (_, i) => `s${i}`);
    await temp.workspace.write({
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
    await temp.workspace.write({ '.rxharness/agents/big.md': agentFile('big', `skills: ${names.join(',')}\n`) });
    const agents = manager();
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons).toHaveLength(MAX_SKILLS + 1);
    expect(reasons.filter((r) => r.startsWith('unknown skill'))).toHaveLength(MAX_SKILLS);
    expect(agents.systemPromptOf(agents.require('big'))).toBe('You are big.');
  });
});
