import { errnoOf } from '../../errors/errno-of.js';
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { errorMessage } from '../../errors/error-message.js';
import { readBoundedFile } from '../read-bounded-file.js';
import { isInside, realFolder as realWithin } from '../file-within.js';
import { AGENT_NAME_PATTERN } from '../agent-definition.js';
import { FileOutcomeCache } from './file-outcome-cache.js';
import { MAX_SKILL_BYTES, type Skill, type SkillDir } from './skill.js';
import { skillText, type SkillText } from './skill-front-matter.js';
import { frontMatterChars } from '../front-matter.js';
import type { SkillYamlBudget } from './skill-yaml-budget.js';

/**
 * What was read of a `SKILL.md`: its front matter's size, and what its text says (or why it
 * is no skill), unless a {@link SkillYamlBudget} left it unparsed. An error about the text is
 * a value here, with the size: a budget counts a broken skill as it counts a loaded one.
 */
interface SkillFile {
  readonly yamlChars: number;
  readonly said?: { readonly text: SkillText } | { readonly problem: unknown };
}

/**
 * The `SKILL.md` files read lately, kept while unchanged. One for the process, not one per
 * engine: an entry is what a file's bytes say (keyed by its path, the folder name and the
 * file's inode, size and times), the same for every engine; each engine's trust and link
 * checks run before it on every read. Shared, an engine per request (a `serve`) reads an
 * unchanged skill once. Bounded: 256 files, 8 Mi characters (a full 64 KiB skill is 64 Ki).
 * An error from the system (`EMFILE` when the process is out of descriptors a moment) is not
 * kept: only what the file says is (see `fromTheSystem`).
 */
export const SKILL_TEXTS = new FileOutcomeCache<SkillFile>({ entries: 256, chars: 8 * 1024 * 1024 });

/**
 * Reads the skill `name` from one skill folder: `undefined` when the folder has no such skill
 * folder. The skill folder itself may be a symbolic link (a shared folder linked in), but its
 * `SKILL.md` must stay inside it: a link leading elsewhere (`../../.ssh/id_rsa`) is refused;
 * so is one leading out of `dir.within` (a workspace skill folder linked out of the workspace),
 * and, within `dir.within`, a link swapped in for the file or one of its folders after that
 * check, and a file with another hard link. The links are checked on every call; the file is
 * read only when it changed since it was last read (see {@link SKILL_TEXTS}).
 *
 * @param budget - for a workspace skill, the front matter characters this call may still load
 *   (its agent's or its discovery's); the skill's front matter is counted whether it is read
 *   or kept, and one past the budget is neither loaded nor parsed.
 * @throws Error naming the problem: a name that is no folder name ({@link skillNameProblem}),
 *   or, naming the file, no `SKILL.md`, a link out of the folder, a file over
 *   {@link MAX_SKILL_BYTES}, bad front matter (see `readFrontMatter`), a missing
 *   `description` or a `name` that is not the folder's; SkillBudgetError when past `budget`.
 */
export function readSkill(dir: SkillDir, name: string, budget?: SkillYamlBudget): Skill | undefined {
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
  // Read again only when the file changed: each child start reads its skills, up to 32 front matters of 64 KiB.
  const confined = dir.within !== undefined;
  // Asked once per call, whether the file is read or kept: the budget counts each skill once.
  let admitted: boolean | undefined;
  const admit = (chars: number): boolean => (admitted ??= budget === undefined || budget.admits(chars));
  const read = SKILL_TEXTS.get(
    `${file}\0${realFile}\0${name}\0${confined}`,
    realFile,
    () => readSkillFile(file, realFile, name, confined, admit),
    weightOf,
    // Kept unparsed (past a budget then), it is read again only for a call whose budget takes it.
    (kept) => kept.said !== undefined || !admit(kept.yamlChars),
  );
  // Left unparsed only when the budget refused it (without a budget every skill is admitted).
  if (!admit(read.yamlChars) || read.said === undefined) throw budget!.refusal(file, read.yamlChars);
  if ('problem' in read.said) throw read.said.problem;
  const text = read.said.text;
  return Object.freeze({ name, description: text.description, body: text.body, source: dir.source, file, warnings: text.warnings });
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
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new Error(`${path}: cannot be read: ${errorMessage(error)}`);
  }
}

/**
 * Reads and checks `realFile`, naming `file` in every error. Never through a link as its last
 * part (`O_NOFOLLOW`, every skill, your own too): the path was just checked to stay in its
 * skill folder, and a link put in its place meanwhile would lead anywhere. `confined` (a
 * workspace skill): besides, read only if it still is the file checked, as a workspace
 * definition is (see `readBoundedFile`'s `confined`): no folder of it turned into a link since
 * it was resolved, no other hard link. Your own skills may be hard-linked (shared with a tool).
 * Its front matter is parsed only if `admit` takes its size; what the text says wrong is
 * returned, not thrown (only a failure to read the file is).
 */
function readSkillFile(file: string, realFile: string, name: string, confined: boolean, admit: (chars: number) => boolean): SkillFile {
  let text: string;
  try {
    text = readBoundedFile(realFile, { maxBytes: MAX_SKILL_BYTES, what: 'a skill', noFollow: true, confined });
  } catch (error) {
    // The cause keeps the system's `code` (EMFILE...): SKILL_TEXTS keeps no such error, read again at the next call.
    throw new Error(`${file}: ${errorMessage(error)}`, { cause: error });
  }
  const yamlChars = frontMatterChars(text);
  if (!admit(yamlChars)) return { yamlChars };
  try {
    return { yamlChars, said: { text: skillText(text, file, name) } };
  } catch (problem) {
    return { yamlChars, said: { problem } };
  }
}

function weightOf(read: SkillFile): number {
  if (read.said === undefined) return 0;
  if ('problem' in read.said) return errorMessage(read.said.problem).length;
  const text = read.said.text;
  return text.description.length + text.body.length + text.warnings.reduce((sum, w) => sum + w.length, 0);
}
