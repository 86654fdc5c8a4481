import { describe, expect, it } from 'vitest';
import { MAX_SKILLS_CHECKED } from '../../src/subagent/skills/skill-reads.js';
import { goodSkill, standardManager } from './skill-test-kit.js';
import { agentFile, tempWorkspaceAndHome } from './temp-agents.js';

// Discovery checks every definition's skills for its diagnostics. A cloned repository with its
// 256 definitions each naming the same 32 skills, each a 64 KiB front matter, made that 8,192
// YAML parses: the first `engine.agents` call stalled the process for 19 s (a 3 MB checkout).

const temp = tempWorkspaceAndHome();

const manager = () => standardManager(temp);
/** A SKILL.md without a description: every read of it is a diagnostic, so the diagnostics count the reads. */
const broken = (name: string): string => `---\nname: ${name}\n---\nBody of ${name}.\n`;
const good = goodSkill;

describe('the skills discovery reads', () => {
  it('counts a skill named by many definitions once against the reads allowed, and reports it for each of them', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const definitions = 40; // 800 look-ups of 20 folders: far more than the reads allowed
    await temp.workspace.write({
      ...Object.fromEntries(Array.from({ length: definitions }, (_, d) => [`.rxharness/agents/a${d}.md`, agentFile(`a${d}`, `skills: [${names.join(', ')}]\n`)])),
      ...Object.fromEntries(names.map((n) => [`.rxharness/skills/${n}/SKILL.md`, broken(n)])),
    });
    const reasons = manager().diagnostics().map((d) => d.reason);
    expect(reasons.filter((r) => r.includes('needs a "description"'))).toHaveLength(definitions * names.length);
    expect(reasons.filter((r) => r.includes('not checked'))).toEqual([]);
  });

  it(`reads at most ${MAX_SKILLS_CHECKED} skill folders in all, says which were left unchecked, and still loads them for a run`, async () => {
    const perDefinition = 30;
    const definitions = Math.ceil((MAX_SKILLS_CHECKED + 20) / perDefinition);
    const files: Record<string, string> = {};
    for (let d = 0; d < definitions; d++) {
      const names = Array.from({ length: perDefinition }, (_, i) => `d${d}-s${i}`);
      files[`.rxharness/agents/a${String(d).padStart(3, '0')}.md`] = agentFile(`a${String(d).padStart(3, '0')}`, `skills: [${names.join(', ')}]\n`);
      for (const n of names) files[`.rxharness/skills/${n}/SKILL.md`] = d === definitions - 1 && n.endsWith('-s0') ? good(n) : broken(n);
    }
    await temp.workspace.write(files);
    const agents = manager();
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons.filter((r) => r.includes('needs a "description"'))).toHaveLength(MAX_SKILLS_CHECKED);
    const unchecked = reasons.filter((r) => r.includes('not checked'));
    expect(unchecked.length).toBeGreaterThan(0);
    expect(unchecked[0]).toContain(`at most ${MAX_SKILLS_CHECKED} skill folders`);
    // Left unchecked by discovery, read when the agent runs: the last definition's good skill is in its prompt.
    const last = `a${String(definitions - 1).padStart(3, '0')}`;
    expect(agents.systemPromptOf(agents.require(last))).toContain(`## Skill: d${definitions - 1}-s0\n\nSkill d${definitions - 1}-s0.`);
  });
});
