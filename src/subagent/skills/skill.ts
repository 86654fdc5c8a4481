import { join, resolve } from 'node:path';
import { realFolder } from '../file-within.js';

/** The most bytes a `SKILL.md` may have: it goes whole into a system prompt. */
export const MAX_SKILL_BYTES = 64 * 1024;

/**
 * The most skills one definition puts into its prompt. Each is read from disk (two folders
 * looked up) whenever a run of the agent starts and at discovery, and may be
 * {@link MAX_SKILL_BYTES}: a cloned repository's definition naming 3,000 skill folders built a
 * 180 MB system prompt and stalled every start for a second. The ones named after these are
 * left out, with a diagnostic.
 */
export const MAX_SKILLS = 32;

/**
 * A skill in the Agent Skills format (as Claude Code reads it): a folder
 * `.rxharness/skills/<name>/` holding `SKILL.md`, YAML front matter (`name`, `description`)
 * and a Markdown body. A definition's `skills: [name]` puts it into its agent's system prompt.
 */
export interface Skill {
  /** The skill's name: its folder's name, which the front matter's `name` repeats. */
  readonly name: string;
  /** What the skill is for (front matter `description`). */
  readonly description: string;
  /** The Markdown body, trimmed (may be empty). */
  readonly body: string;
  /** Where it was read from: the workspace's skills or the user's. */
  readonly source: SkillSource;
  /** The absolute path of its `SKILL.md`. */
  readonly file: string;
  /** Front matter keys that do nothing here (`allowed-tools`, misspelt keys), each with why; the skill is loaded without them. */
  readonly warnings?: readonly string[];
}

/** Where a skill folder lives: `<workspace>/.rxharness/skills/` or `~/.rxharness/skills/`. */
export type SkillSource = 'workspace' | 'user';

/** A folder of skill folders, and which source its skills have. */
export interface SkillDir {
  /** Absolute path of the folder holding `<name>/SKILL.md`. */
  readonly path: string;
  /** `workspace` skills follow the trust rules of workspace definitions. */
  readonly source: SkillSource;
  /**
   * A folder every `SKILL.md` read from here must really lie in (`standardSkillDirs` gives the
   * workspace's skills the workspace): a skill folder linked out of it is refused, as a
   * definition file is (see `AgentDir.within`). Unset, a skill folder may be a link anywhere.
   */
  readonly within?: string;
}

/**
 * The folders skills are looked up in, in order: the workspace's `.rxharness/skills/`, then
 * the home folder's. When the workspace is the home folder itself (compared as real paths, so
 * a link to the home counts), that folder is looked up once, as the user's (source `user`),
 * as `standardAgentDirs` reads the agents there: the user's own skills are not a cloned
 * repository's.
 *
 * @example
 * ```ts
 * const dirs = standardSkillDirs({ workspace: process.cwd() });
 * ```
 */
export function standardSkillDirs(options: { readonly workspace: string; readonly home: string }): SkillDir[] {
  const [workspace, home] = [resolve(options.workspace), resolve(options.home)];
  const user: SkillDir = { path: join(home, '.rxharness', 'skills'), source: 'user' };
  if (realFolder(home) === realFolder(workspace)) return [user];
  return [{ path: join(workspace, '.rxharness', 'skills'), source: 'workspace', within: workspace }, user];
}
