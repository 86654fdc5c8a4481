import { renameRuleKeys, type RenamedRule } from '../permission/rule-dialect.js';

/**
 * Other frameworks' spellings of our front-matter keys, so a definition file brought from
 * one of them loads as it is. Each alias names the key it stands for and who spells it so.
 */
export const KEY_ALIASES: Readonly<Record<string, { readonly key: string; readonly from: string }>> = Object.freeze({
  disallowed_tools: { key: 'disallowedTools', from: 'harness9' },
  max_turns: { key: 'maxSteps', from: 'harness9' },
  maxTurns: { key: 'maxSteps', from: 'Claude Code' },
  steps: { key: 'maxSteps', from: 'opencode' },
  token_budget: { key: 'tokenBudget', from: 'snake_case' },
});

/**
 * The `model` value Claude Code spells for "the parent's model": read as no `model` at all,
 * which means that here. Taken as a model's name, it named none and failed every run.
 */
export const INHERIT_MODEL = 'inherit';

/** The key of ours a front-matter key stands for: itself unless it is an alias. */
export function canonicalKey(key: string): string {
  return Object.hasOwn(KEY_ALIASES, key) ? KEY_ALIASES[key]!.key : key;
}

/** Every spelling of `key`: the key itself, then its aliases. */
export function spellingsOf(key: string): string[] {
  return [key, ...Object.keys(KEY_ALIASES).filter((alias) => KEY_ALIASES[alias]!.key === key)];
}

/** Front matter in our spelling, and how the file spelled each key (for messages). */
export interface RenamedFields {
  readonly fields: Record<string, unknown>;
  /**
   * The spelling the file used for the last key of a path of ours: `spelled(['maxSteps'])`
   * may be `max_turns`, `spelled(['permissionRules', '0', 'action'])` Solon's `behavior`.
   */
  spelled(path: readonly string[]): string;
}

/**
 * `fields` with each alias renamed to its key (`max_turns: 3` becomes `maxSteps: 3`), and
 * the permission rules in Solon's spelling in ours (`renameRuleKeys`). `null` counts as
 * absent, as everywhere in front matter, so `steps:` left empty clashes with nothing.
 * `fields` has no prototype: every key in it is one the file gave.
 *
 * @throws Error naming both spellings when one key is given twice (`maxSteps` and `max_turns`,
 * or a rule's `tool` and `toolName`): which one was meant cannot be guessed.
 */
export function renameAliases(given: Readonly<Record<string, unknown>>): RenamedFields {
  // No prototype, so no key is special: `fields['__proto__'] = value` would otherwise replace
  // the prototype, and its values would be read as the definition's (buildDefinition refuses
  // such keys before this; this is the second wall).
  const fields = Object.create(null) as Record<string, unknown>;
  const spelledAs = new Map<string, string>();
  for (const [key, value] of Object.entries(given)) {
    const meant = canonicalKey(key);
    if (meant === key && !spelledAs.has(key)) {
      fields[key] = value;
      if (value !== undefined && value !== null) spelledAs.set(key, key);
      continue;
    }
    if (value === undefined || value === null) continue;
    const earlier = spelledAs.get(meant);
    if (earlier !== undefined) {
      const which = earlier === meant || key === meant ? '' : ` ("${meant}")`;
      throw new Error(`"${earlier}" and "${key}" are two spellings of one key${which}; keep one of them`);
    }
    spelledAs.set(meant, key);
    fields[meant] = value;
  }
  const rules = renameRules(fields['permissionRules']);
  if (rules !== undefined) fields['permissionRules'] = rules.map((rule) => rule.value);
  return {
    fields,
    spelled: (path) => {
      const last = path.at(-1) ?? '';
      if (path.length === 1) return spelledAs.get(last) ?? last;
      // A key of one rule: ['permissionRules', index, key].
      if (path.length === 3 && path[0] === 'permissionRules') return rules?.[Number(path[1])]?.spelled(last) ?? last;
      return last;
    },
  };
}

/** Each rule of a list renamed to our spelling; `undefined` when the value is not a list. */
function renameRules(value: unknown): RenamedRule[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((item: unknown, index) => {
    const renamed = renameRuleKeys(item);
    if ('problem' in renamed) throw new Error(`Invalid permission rule in "permissionRules" at index ${index}: ${renamed.problem}`);
    return renamed;
  });
}
