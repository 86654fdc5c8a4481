import { describe, expect, it } from 'vitest';
import { RxHarnessError } from '../../src/errors/rxharness-error.js';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { MAX_FOLDER_YAML_CHARS } from '../../src/subagent/folder-budget.js';
import { fromTheSystem } from '../../src/subagent/skills/file-outcome-cache.js';
import { SKILL_TEXTS } from '../../src/subagent/skills/read-skill.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { SkillBudgetError, SkillYamlBudget } from '../../src/subagent/skills/skill-yaml-budget.js';
import { agentFile, tempWorkspaceAndHome, type TempDir } from './temp-agents.js';

// A cloned repository's definition may name 32 skills of 64 KiB each: 2 MiB of front matter
// parsed synchronously at discovery and at every start of its agent (32 slow ones held
// discovery for 17 s, each start for 11 s). The workspace skills' front matters load within
// the YAML budget of a folder of definitions, per agent and per discovery; a skill past it is
// left out with a problem naming it and the limit, at every start alike.

const temp = tempWorkspaceAndHome();

const PAD = 60_000;
/** A valid skill of about 60 KiB of front matter (the file stays under 64 KiB): 8 fit the budget, not 9. */
const wideSkill = (name: string): string => `---\nname: ${name}\ndescription: Skill ${name}.\nlicense: "${'x'.repeat(PAD)}"\n---\nBODY ${name}\n`;
/** A skill of about 60 KiB whose YAML fails at its end (an unclosed "["): a DefinitionError. */
const brokenSkill = (name: string): string => `---\nname: ${name}\ndescription: d\nlicense: "${'x'.repeat(PAD)}"\nbroken: [\n---\nbody\n`;

const NAMES = Array.from({ length: 9 }, (_, i) => `s${i}`);

/** Writes `skills` (name to text) into `where`'s skills folder, and a workspace definition "a" naming them. */
async function setUp(where: TempDir, skills: (name: string) => string, names = NAMES): Promise<AgentManager> {
  await where.write(Object.fromEntries(names.map((n) => [`.rxharness/skills/${n}/SKILL.md`, skills(n)])));
  await temp.workspace.write({ '.rxharness/agents/a.md': agentFile('a', `skills: [${names.join(', ')}]\n`) });
  temp.settled();
  return new AgentManager({
    dirs: standardAgentDirs({ workspace: temp.workspace.path, home: temp.home.path }),
    skillDirs: standardSkillDirs({ workspace: temp.workspace.path, home: temp.home.path }),
  });
}

describe('the YAML budget of workspace skills', () => {
  it('leaves out the skill whose front matter passes one agent\'s budget, naming it and the limit, at every start', async () => {
    const agents = await setUp(temp.workspace, wideSkill);
    const definition = agents.require('a');
    for (let start = 0; start < 2; start++) {
      const problems = agents.skillProblems(definition);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^skill "s8" is not loaded: .*s8.SKILL\.md: is not read: its front matter \(\d+ characters\)/);
      expect(problems[0]).toContain(`pass the ${MAX_FOLDER_YAML_CHARS} characters of skill front matter one agent may bring`);
      const prompt = agents.systemPromptOf(definition);
      for (const n of NAMES.slice(0, 8)) expect(prompt).toContain(`BODY ${n}`);
      expect(prompt).not.toContain('BODY s8');
    }
  });

  it('at discovery, says which skills were not checked and the limit', async () => {
    const agents = await setUp(temp.workspace, wideSkill);
    const reasons = agents.diagnostics().map((d) => d.reason);
    expect(reasons).toContainEqual(expect.stringMatching(new RegExp(`^skills "s8" were not checked: .*at most ${MAX_FOLDER_YAML_CHARS} characters of workspace skill front matter`)));
  });

  it('reads none of 32 settled broken skills again at a child start: the bad YAML is kept, and the budget counts kept ones', async () => {
    const names = Array.from({ length: 32 }, (_, i) => `b${i}`);
    const agents = await setUp(temp.workspace, brokenSkill, names);
    const definition = agents.require('a');
    agents.load(); // discovery reads them all once
    const before = SKILL_TEXTS.loads;
    for (let start = 0; start < 2; start++) {
      const problems = agents.skillProblems(definition);
      expect(problems.filter((p) => p.includes('invalid YAML in front matter'))).toHaveLength(8);
      expect(problems.filter((p) => p.includes(`pass the ${MAX_FOLDER_YAML_CHARS} characters`))).toHaveLength(24);
      agents.systemPromptOf(definition);
    }
    expect(SKILL_TEXTS.loads - before).toBe(0);
  });
});

describe('the refusal of a skill past the budget', () => {
  it('is an RxHarnessError with its own code, which no errno check takes for the system\'s', () => {
    const refusal = new SkillYamlBudget('agent').refusal('skills/s8/SKILL.md', 61_000);
    expect(RxHarnessError.isInstance(refusal)).toBe(true);
    expect(SkillBudgetError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ name: 'SkillBudgetError', code: 'SKILL_YAML_BUDGET' });
    expect(refusal.message).toMatch(/^skills\/s8\/SKILL\.md: is not read: its front matter \(61000 characters\)/);
    // Taken for the system's (an errno), it would be retried as a passing failure, not counted as the call's.
    expect(fromTheSystem(refusal)).toBe(false);
    expect(fromTheSystem(new Error('x', { cause: refusal }))).toBe(false);
  });
});
