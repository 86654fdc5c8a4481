import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { errorMessage } from '../../errors/error-message.js';
import { readFrontMatter } from '../front-matter.js';
import { readBoundedFile } from '../read-bounded-file.js';
import { isInside, realFolder as realWithin } from '../file-within.js';
import { describeValue } from '../../validation/describe-value.js';
import { AGENT_NAME_PATTERN } from '../agent-definition.js';
import { MAX_SKILL_BYTES, type Skill, type SkillDir } from './skill.js';

/**
 * Reads the skill `name` from one skill folder: `undefined` when the folder has no such skill
 * folder. The skill folder itself may be a symbolic link (a shared folder linked in), but its
 * `SKILL.md` must stay inside it: a link leading elsewhere (`../../.ssh/id_rsa`) is refused;
 * so is one leading out of `dir.within` (a workspace skill folder linked out of the workspace).
 *
 * @throws Error naming the problem: a name that is no folder name ({@link skillNameProblem}),
 *   or, naming the file, no `SKILL.md`, a link out of the folder, a file over
 *   {@link MAX_SKILL_BYTES}, bad front matter (see `readFrontMatter`), a missing
 *   `description` or a `name` that is not the folder's.
 */
export function readSkill(dir: SkillDir, name: string): Skill | undefined {
  const bad = skillNameProblem(name);
  if (bad !== undefined) throw new Error(bad);
  const folder = join(dir.path, name);
  const realFolder = realpathOrUndefined(folder);
  if (realFolder === undefined) return undefined;
  const file = join(folder, 'SKILL.md');
  const realFile = realpathOrUndefined(file);
  if (realFile === undefined) throw new Error(`${folder}: the skill folder has no SKILL.md`);
  const inside = relative(realFolder, realFile);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(`${file}: is a symbolic link leading out of its skill folder (to ${realFile}); copy the file in instead`);
  }
  if (dir.within !== undefined && !isInside(realFile, realWithin(dir.within))) {
    throw new Error(`${file}: is a symbolic link leading out of the workspace (to ${realFile}); a workspace skill must be a file of the workspace: copy it in instead`);
  }
  let text: string;
  try {
    // No link as the last part: the path was just resolved, and one put in its place meanwhile is refused.
    text = readBoundedFile(realFile, { maxBytes: MAX_SKILL_BYTES, what: 'a skill', noFollow: true });
  } catch (error) {
    throw new Error(`${file}: ${errorMessage(error)}`);
  }
  const { data, body } = readFrontMatter(text, file, file);
  if (data['name'] !== name) {
    throw new Error(`${file}: front matter "name" must be the folder's name "${name}", got ${describeValue(data['name'])}`);
  }
  const description = data['description'];
  if (typeof description !== 'string' || description.trim() === '') {
    throw new Error(`${file}: front matter needs a "description" (a non-empty string), got ${describeValue(description)}`);
  }
  return Object.freeze({ name, description: description.trim(), body: body.trim(), source: dir.source, file });
}

/**
 * Why `name` cannot name a skill, or `undefined` when it can: a skill name is the name of a
 * folder of the skills folder (letters, digits, `_` and `-`), so none leaves it (`../x`, `a/b`).
 * The definition's schema says so already; this is checked again where paths are made.
 */
export function skillNameProblem(name: string): string | undefined {
  if (AGENT_NAME_PATTERN.test(name)) return undefined;
  return `${JSON.stringify(name)} is not a skill name: a skill name is the name of its folder (letters, digits, "_" and "-"; no "/", "\\" or "..")`;
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new Error(`${path}: cannot be read: ${errorMessage(error)}`);
  }
}
