import { firstProblem, type MessageContext } from '../validation/schema-message.js';
import { InvalidPermissionRuleError } from './invalid-permission-rule-error.js';
import { PERMISSION_RULE_SCHEMA, type PermissionAction, type PermissionRule } from './permission-rule.js';
import { renameRuleKeys } from './rule-dialect.js';
import { rulePatternProblem } from './rule-pattern-cost.js';

// How problems of rules given here read (the error names where and the index): the whole
// rule and a missing field as what they must be; unknown keys all at once. A definition's
// front matter embeds the bare schema and words a missing key its own way (`has no "action"`).
const RULE_SCHEMA = {
  ...PERMISSION_RULE_SCHEMA,
  errorMessage: {
    type: 'expected {description}, got {value}',
    required: '{subject} must be {description}, got {value}',
    additionalProperties: 'unknown key {unknown} (allowed: {known})',
  },
} as const;
const LIST_SCHEMA = { type: 'array', errorMessage: 'expected an array of rules, got {value}' } as const;

/**
 * Validates untrusted rule data (engine options, YAML front matter) and returns frozen
 * rules. `undefined` and `null` (an empty YAML key) mean no rules. Unknown keys are
 * refused: a misspelt `pattern` would otherwise silently widen a rule to every call.
 * Rules in the Solon harness's spelling (`toolName`, `behavior`: see `SolonPermissionRule`)
 * are read as ours.
 *
 * @param value - the data to check; should be an array of rule objects.
 * @param where - names the source in error messages, e.g. `agents/reviewer.md`.
 * @throws {@link InvalidPermissionRuleError} naming `where`, the index and the problem.
 *
 * @example
 * ```ts
 * const rules = parsePermissionRules([{ tool: 'bash', action: 'deny' }], 'engine options');
 * ```
 */
export function parsePermissionRules(value: unknown, where: string): PermissionRule[] {
  if (value === undefined || value === null) return [];
  const notList = firstProblem(LIST_SCHEMA, value, { holder: 'rules', spelled: (path) => path.at(-1)!, values: 'literal' });
  if (notList) throw new InvalidPermissionRuleError(where, undefined, notList.message);
  return (value as unknown[]).map((item: unknown, index) => parseRule(item, where, index));
}

function parseRule(item: unknown, where: string, index: number): PermissionRule {
  const renamed = renameRuleKeys(item);
  if ('problem' in renamed) throw new InvalidPermissionRuleError(where, index, renamed.problem);
  // Keys as the rule spelt them (Solon's `behavior`), values as code writes them (`got "yes"`).
  const context: MessageContext = { holder: 'rule', spelled: (path) => renamed.spelled(path.at(-1)!), values: 'literal' };
  const problem = firstProblem(RULE_SCHEMA, renamed.value, context);
  if (problem) throw new InvalidPermissionRuleError(where, index, problem.message);
  const { tool, action, pattern, priority } = renamed.value as PermissionRule;
  const costly = rulePatternProblem(renamed.value as PermissionRule);
  if (costly) throw new InvalidPermissionRuleError(where, index, costly);
  return Object.freeze({
    tool: tool.trim(),
    action: action as PermissionAction,
    ...(pattern === undefined ? {} : { pattern }),
    ...(priority === undefined ? {} : { priority }),
  });
}
