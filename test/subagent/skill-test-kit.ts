/**
 * What the skill tests of this folder build on the folders of {@link tempWorkspaceAndHome}: an
 * AgentManager reading the standard definition and skill folders of a workspace and a home, as
 * an engine does, and a well-formed SKILL.md.
 *
 * @module
 */
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import type { TempWorkspaceAndHome } from './temp-agents.js';

/** A new AgentManager over the standard folders of the current test's workspace and home. */
export function standardManager(folders: Pick<TempWorkspaceAndHome, 'workspace' | 'home'>): AgentManager {
  const where = { workspace: folders.workspace.path, home: folders.home.path };
  return new AgentManager({ dirs: standardAgentDirs(where), skillDirs: standardSkillDirs(where) });
}

/** A well-formed SKILL.md of skill `name`: described `Skill <name>.`, its body `Body of <name>.`. */
export const goodSkill = (name: string): string => `---\nname: ${name}\ndescription: Skill ${name}.\n---\nBody of ${name}.\n`;
