import { readSkill } from './read-skill.js';
import type { Skill, SkillDir } from './skill.js';
import { SkillBudgetError, SkillYamlBudget } from './skill-yaml-budget.js';

/**
 * The most skill folders one discovery reads to check the definitions' skills. Each read
 * parses a front matter of up to 64 KiB: a cloned repository whose 256 definitions named 32
 * skills each (8,192 look-ups, in a 3 MB checkout) stalled the first `engine.agents` call for
 * 19 s. The skills left unchecked are still read when their agent runs.
 */
export const MAX_SKILLS_CHECKED = 256;

/** What {@link SkillReads.read} answers for a skill folder it did not read or parse: the reads or front matter characters allowed are spent. */
export const NOT_CHECKED: unique symbol = Symbol('not checked');

type Outcome = { readonly skill: Skill | undefined | typeof NOT_CHECKED } | { readonly error: unknown };

/**
 * The skill reads of one discovery: each folder's `SKILL.md` read once whatever the number of
 * definitions naming it, and at most {@link MAX_SKILLS_CHECKED} folders read in all, of whose
 * workspace skills the front matters parsed stay within one {@link SkillYamlBudget}. A name
 * with no folder costs a path lookup only and is not counted.
 */
export class SkillReads {
  readonly #outcomes = new Map<string, Outcome>();
  #read = 0;
  readonly #yaml = new SkillYamlBudget('discovery');

  /**
   * `readSkill(dir, name)`, remembered; {@link NOT_CHECKED} once the reads allowed are spent,
   * or for a workspace skill whose front matter the discovery's budget has no room left for.
   *
   * @throws what `readSkill` threw for that folder, every time it is asked again.
   */
  read(dir: SkillDir, name: string): Skill | undefined | typeof NOT_CHECKED {
    const key = `${dir.path}\0${dir.within ?? ''}\0${name}`;
    let outcome = this.#outcomes.get(key);
    if (outcome === undefined) {
      if (this.#read >= MAX_SKILLS_CHECKED) return NOT_CHECKED;
      try {
        outcome = { skill: readSkill(dir, name, dir.source === 'workspace' ? this.#yaml : undefined) };
      } catch (error) {
        // The budget only grows spent: a later definition naming it would be refused again.
        outcome = error instanceof SkillBudgetError ? { skill: NOT_CHECKED } : { error };
      }
      // An absent folder was a path lookup, not a read.
      if (!('skill' in outcome) || outcome.skill !== undefined) this.#read += 1;
      this.#outcomes.set(key, outcome);
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.skill;
  }
}
