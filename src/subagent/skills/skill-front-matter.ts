import { load } from 'js-yaml';
import { describeValue } from '../../validation/describe-value.js';
import { readFrontMatter } from '../front-matter.js';
import { misspeltKeyWarnings } from '../misspelt-keys.js';

/** What a `SKILL.md` says, once its front matter is checked: all of a skill but where it was found. */
export interface SkillText {
  /** Front matter `description`, trimmed. */
  readonly description: string;
  /** The Markdown body, trimmed (may be empty). */
  readonly body: string;
  /** Keys of its front matter that do nothing here, each with why (see {@link skillText}). */
  readonly warnings: readonly string[];
}

/**
 * The most warnings one skill gets; the rest are counted in one more. A 64 KiB front matter
 * holds thousands of keys, each near "description", and every definition naming the skill
 * would list them all.
 */
const MAX_WARNINGS = 4;

/** The keys a skill's front matter is read for. */
const SKILL_KEYS = ['name', 'description'];

/**
 * Keys other harnesses act on (Claude Code's skills), spelt without case, `-` or `_`, and what
 * to do instead. Silently ignored, `allowed-tools: [read]` reads as a skill confined to
 * reading while its agent keeps every tool it has.
 */
const NOT_HONOURED: Readonly<Record<string, string>> = {
  allowedtools: 'a skill cannot change which tools its agent has (the agent keeps every tool its definition gives it); narrow them with "tools" in the definition naming the skill',
  disallowedtools: 'a skill cannot change which tools its agent has; take tools away with "disallowedTools" in the definition naming the skill',
  model: 'the agent runs on its definition\'s model; set "model" in the definition naming the skill',
};

/**
 * Checks the text of the `SKILL.md` of the folder `name`: YAML front matter with `name` (the
 * folder's) and a non-empty `description`, then the body. Keys it does not use are ignored
 * (the Agent Skills format has `license`, `metadata`...), but one another harness would act
 * on (`allowed-tools`, `model`) or a misspelt key gets a warning (at most four, the rest
 * counted in a fifth), and the skill still loads.
 *
 * @param file - the `SKILL.md`, for messages
 * @throws DefinitionError or Error naming `file`: bad front matter (see `readFrontMatter`), a
 *   `name` that is not the folder's, a missing `description`.
 */
export function skillText(text: string, file: string, name: string): SkillText {
  const { data, body } = readFrontMatter(text, file, file);
  if (data['name'] !== name) {
    // A folder named `123`, `true`, `null` or `1e3` is a fine skill name, but YAML reads it unquoted as something else.
    const quote = typeof data['name'] !== 'string' && typeof plainYaml(name) !== 'string' ? ` (YAML reads ${name} so: write it in quotes, name: "${name}")` : '';
    throw new Error(`${file}: front matter "name" must be the folder's name "${name}", got ${describeValue(data['name'])}${quote}`);
  }
  const description = data['description'];
  if (typeof description !== 'string' || description.trim() === '') {
    throw new Error(`${file}: front matter needs a "description" (a non-empty string), got ${describeValue(description)}`);
  }
  const warnings: string[] = [];
  // No prototype: a `__proto__` key is a key like any other here.
  const others = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    const why = Object.hasOwn(NOT_HONOURED, spelling(key)) ? NOT_HONOURED[spelling(key)] : undefined;
    if (why !== undefined) warnings.push(`front matter key "${key}" is not honoured: ${why}`);
    else others[key] = data[key];
  }
  warnings.push(...misspeltKeyWarnings(others, SKILL_KEYS));
  if (warnings.length > MAX_WARNINGS) {
    const more = warnings.length - MAX_WARNINGS;
    warnings.splice(MAX_WARNINGS, more, `and ${more} more front matter ${more === 1 ? 'key' : 'keys'} like these: remove them`);
  }
  return Object.freeze({ description: description.trim(), body: body.trim(), warnings: Object.freeze(warnings) });
}

/** What YAML reads a skill name (letters, digits, `_`, `-`) as, unquoted. */
function plainYaml(name: string): unknown {
  try {
    return load(name);
  } catch {
    return undefined; // `-` alone, say: not a string either
  }
}

function spelling(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}
