import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../errors/error-message.js';
import type { AgentDefinition } from '../agent-definition.js';
import { readSkill, skillNameProblem } from './read-skill.js';
import { MAX_SKILLS, type Skill, type SkillDir } from './skill.js';
import { MAX_SKILLS_CHECKED, NOT_CHECKED, type SkillReads } from './skill-reads.js';
import { SkillYamlBudget } from './skill-yaml-budget.js';
import { MAX_FOLDER_YAML_CHARS } from '../folder-budget.js';

/** The skills a definition names that could be read, and what went wrong with the others. */
export interface ResolvedSkills {
  /** In the order the definition names them. */
  readonly skills: readonly Skill[];
  /** One message per skill not loaded, or loaded from elsewhere than the workspace, and per front matter key of a loaded skill that does nothing. */
  readonly problems: readonly string[];
}

/**
 * Reads the skills `definition.skills` names, each from the first folder of `dirs` that has
 * it (the workspace's before the home folder's); only the first {@link MAX_SKILLS} are read,
 * the rest are one problem. A workspace skill is untrusted input, as a workspace definition
 * is: it is used by a definition from the workspace itself (whose own
 * prompt is workspace text already) or when the engine trusts workspace definitions;
 * otherwise it is skipped (a cloned repository must not rewrite the prompt of your own
 * agents by naming a folder like your skill) and the home folder's is looked for. Looked up
 * on every call (a file unchanged since it was last read is not read again), so an edited
 * skill counts from the next run. The workspace skills' front matters load within one
 * {@link SkillYamlBudget}: the agent's, or with `reads` (one discovery's, shared by all its
 * definitions) the discovery's; then each folder is read once, and those past its limits are
 * left out with one problem (still read when the agent runs, within its own budget).
 */
export function resolveSkills(definition: AgentDefinition, dirs: readonly SkillDir[], trustWorkspaceAgents: boolean, reads?: SkillReads): ResolvedSkills {
  const skills: Skill[] = [];
  const problems: string[] = [];
  const unchecked: string[] = [];
  const trusted = trustWorkspaceAgents || definition.source === 'workspace';
  const yaml = reads === undefined ? new SkillYamlBudget('agent') : undefined;
  const named = definition.skills ?? [];
  if (named.length > MAX_SKILLS) {
    const left = named.length - MAX_SKILLS;
    problems.push(`skill "${named[MAX_SKILLS]}" and the ${left - 1} after it are not loaded: a definition may name at most ${MAX_SKILLS} skills; name fewer`);
  }
  for (const name of named.slice(0, MAX_SKILLS)) {
    // Before any path is made of it (the existence check below included).
    const bad = skillNameProblem(name);
    if (bad !== undefined) {
      problems.push(`skill ${JSON.stringify(name)} is not loaded: ${bad}`);
      continue;
    }
    let found: Skill | undefined;
    let failed = false;
    for (const dir of dirs) {
      if (dir.source === 'workspace' && !trusted) {
        if (existsSync(join(dir.path, name))) {
          problems.push(
            `skill "${name}" in the workspace (${join(dir.path, name)}) is not loaded: a workspace skill is untrusted for a ` +
              `${definition.source} definition. Set the engine option trustWorkspaceAgents to trust it, or move it to ~/.rxharness/skills/.`,
          );
        }
        continue;
      }
      try {
        const read = reads ? reads.read(dir, name) : readSkill(dir, name, dir.source === 'workspace' ? yaml : undefined);
        if (read === NOT_CHECKED) {
          unchecked.push(name);
          failed = true; // not unknown: not looked at
        } else found = read;
      } catch (error) {
        problems.push(`skill "${name}" is not loaded: ${errorMessage(error)}`);
        failed = true;
      }
      if (found !== undefined || failed) break;
    }
    if (found !== undefined) {
      skills.push(found);
      for (const warning of found.warnings ?? []) problems.push(`skill "${name}" is loaded, but in ${found.file}: ${warning}`);
    }
    else if (!failed) {
      problems.push(`unknown skill "${name}": no ${dirs.map((d) => join(d.path, name, 'SKILL.md')).join(' or ')}`);
    }
  }
  if (unchecked.length > 0) {
    problems.push(
      `skills ${unchecked.map((n) => `"${n}"`).join(', ')} were not checked: discovery reads at most ${MAX_SKILLS_CHECKED} skill folders, ` +
        `and at most ${MAX_FOLDER_YAML_CHARS} characters of workspace skill front matter, for all the definitions (these pass it); ` +
        'each is still read when its agent runs',
    );
  }
  return { skills, problems };
}

/**
 * The system prompt with each skill after it under its own heading: `## Skill: <name>`, its
 * description, then its body.
 *
 * @example
 * ```ts
 * withSkills('You review code.', [{ name: 'style', description: 'House style', body: '...', source: 'user', file }]);
 * ```
 */
export function withSkills(systemPrompt: string, skills: readonly Skill[]): string {
  const sections = skills.map((skill) => [`## Skill: ${skill.name}`, skill.description, skill.body].filter((part) => part !== '').join('\n\n'));
  return [systemPrompt, ...sections].join('\n\n');
}
