import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { errorMessage } from '../../errors/error-message.js';
import { readFrontMatter } from '../front-matter.js';
import { describeValue } from '../../validation/describe-value.js';
import { AGENT_NAME_PATTERN } from '../agent-definition.js';
import { MAX_SKILL_BYTES, type Skill, type SkillDir } from './skill.js';

/**
 * Reads the skill `name` from one skill folder: `undefined` when the folder has no such skill
 * folder. The skill folder itself may be a symbolic link (a shared folder linked in), but its
 * `SKILL.md` must stay inside it: a link leading elsewhere (`../../.ssh/id_rsa`) is refused.
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
  const { data, body } = readFrontMatter(readBounded(realFile, file), file, file);
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

/** The file's text, refused when it is not a regular file or is larger than the bound (checked before reading it). */
function readBounded(realFile: string, shown: string): string {
  // O_NOFOLLOW: the path was just resolved; a link put in its place meanwhile is refused.
  const fd = openSync(realFile, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${shown}: is not a regular file`);
    if (stat.size > MAX_SKILL_BYTES) {
      throw new Error(`${shown}: is ${stat.size} bytes, more than the ${MAX_SKILL_BYTES} a skill may have; shorten it`);
    }
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
