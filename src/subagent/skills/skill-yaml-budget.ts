import { RxHarnessError } from '../../errors/rxharness-error.js';
import { charTally, MAX_FOLDER_YAML_CHARS } from '../folder-budget.js';

/**
 * Who a {@link SkillYamlBudget} is for: one agent's skills (read at each start of it) or one
 * discovery's (the skills of all the definitions, checked once).
 */
export type SkillYamlScope = 'agent' | 'discovery';

/**
 * The characters of front matter the workspace's `SKILL.md` files may bring to the YAML loader,
 * for one agent or one discovery: {@link MAX_FOLDER_YAML_CHARS}, as a folder of workspace
 * definitions has. Reading a skill is synchronous (a child start waits on it), and loading
 * YAML can cost seconds per megabyte: a definition may name 32 skills of 64 KiB each, and a
 * cloned repository's 32 slow ones held discovery for 17 s and every child start for 11 s.
 * Counted for a skill whether its file is read or its reading kept, so the same skills are
 * left out at every start. Your own skills (`~/.rxharness/skills/`) are yours to fill: no budget.
 */
export class SkillYamlBudget {
  readonly #scope: SkillYamlScope;
  readonly #tally = charTally(MAX_FOLDER_YAML_CHARS);

  constructor(scope: SkillYamlScope) {
    this.#scope = scope;
  }

  /**
   * Whether a front matter of `chars` characters fits with those taken so far; then it is
   * taken. One that does not fit is not counted, so a smaller later one may still fit.
   */
  admits(chars: number): boolean {
    return this.#tally.take(chars);
  }

  /** The error for the skill of `file`, whose front matter of `chars` characters was refused. */
  refusal(file: string, chars: number): SkillBudgetError {
    const whose = this.#scope === 'agent' ? 'one agent' : 'one discovery';
    return new SkillBudgetError(
      `${file}: is not read: its front matter (${chars} characters) and those of the workspace skills read before it ` +
        `pass the ${MAX_FOLDER_YAML_CHARS} characters of skill front matter ${whose} may bring. ` +
        'Shorten the front matters (the skill\'s text belongs in the body, after the closing "---"), or name fewer skills',
    );
  }
}

/**
 * A skill left unread by a {@link SkillYamlBudget}: about the call, not the file, so never kept
 * as the file's outcome. Its code has a `_`, so `fromTheSystem` never reads it as an errno.
 */
export class SkillBudgetError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'SKILL_YAML_BUDGET';
  /** Always `'SkillBudgetError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'SkillBudgetError';
}
