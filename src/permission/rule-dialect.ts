/**
 * The one place where another harness's spelling of a permission rule becomes ours, before
 * the rule is checked against the one schema (`PERMISSION_RULE_SCHEMA` in permission-rule.ts).
 *
 * @module
 */

/** Solon's keys and the keys of ours they stand for. */
const SOLON_KEYS: Readonly<Record<string, string>> = Object.freeze({ toolName: 'tool', behavior: 'action' });

/** A rule object in our spelling, and how its source spelt each key (for messages). */
export interface RenamedRule {
  /** The rule with our keys; anything that is not a plain object is passed on as it is. */
  readonly value: unknown;
  /** The spelling the source used for a key of ours: `spelled('action')` may be `behavior`. */
  spelled(key: string): string;
}

/**
 * Renames Solon's keys (`toolName`, `behavior`) to ours. In a rule that uses them, a
 * `behavior` is read in lower case (`DENY`) and an empty or null `pattern` means no pattern,
 * as Solon documents ("an empty pattern is a rule for the whole tool").
 *
 * @returns a problem instead when one key is spelt both ways (`tool` and `toolName`).
 *
 * @example
 * ```ts
 * renameRuleKeys({ toolName: 'bash', behavior: 'DENY', pattern: '' }).value; // { tool: 'bash', action: 'deny' }
 * ```
 */
export function renameRuleKeys(item: unknown): RenamedRule | { readonly problem: string } {
  const plain = (key: string): string => key;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return { value: item, spelled: plain };
  const given = item as Record<string, unknown>;
  const solon = Object.keys(given).filter((key) => Object.hasOwn(SOLON_KEYS, key));
  if (solon.length === 0) return { value: item, spelled: plain };
  // No prototype, and only SOLON_KEYS' own keys: `constructor` or `__proto__` (own keys of a
  // parsed JSON rule) stay what they are, unknown keys the schema names, not Object's members.
  const renamed = Object.create(null) as Record<string, unknown>;
  const spelledAs = new Map<string, string>();
  for (const [key, value] of Object.entries(given)) {
    const ours = Object.hasOwn(SOLON_KEYS, key) ? SOLON_KEYS[key]! : key;
    if (Object.hasOwn(renamed, ours)) return { problem: `"${spelledAs.get(ours)}" and "${key}" are two spellings of one key; keep one of them` };
    renamed[ours] = ours === 'action' && typeof value === 'string' ? value.toLowerCase() : value;
    spelledAs.set(ours, key);
  }
  if (renamed['pattern'] === '' || renamed['pattern'] === null) delete renamed['pattern'];
  return { value: renamed, spelled: (key) => spelledAs.get(key) ?? key };
}
