import { configValidator, type ConfigProblem } from '../validation/config-validator.js';
import { InvalidPermissionRuleError } from './invalid-permission-rule-error.js';
import { PERMISSION_RULE_SCHEMA, type PermissionAction, type PermissionRule } from './permission-rule.js';
import { renameRuleKeys } from './rule-dialect.js';

const checkRule = configValidator(PERMISSION_RULE_SCHEMA);
const KEYS = Object.keys(PERMISSION_RULE_SCHEMA.properties);

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
  if (!Array.isArray(value)) {
    throw new InvalidPermissionRuleError(where, undefined, `expected an array of rules, got ${kindOf(value)}`);
  }
  return value.map((item: unknown, index) => parseRule(item, where, index));
}

function parseRule(item: unknown, where: string, index: number): PermissionRule {
  const renamed = renameRuleKeys(item);
  if ('problem' in renamed) throw new InvalidPermissionRuleError(where, index, renamed.problem);
  const problem = firstProblem(checkRule(renamed.value));
  if (problem) throw new InvalidPermissionRuleError(where, index, describe(problem, renamed.spelled));
  const { tool, action, pattern, priority } = renamed.value as PermissionRule;
  return Object.freeze({
    tool: tool.trim(),
    action: action as PermissionAction,
    ...(pattern === undefined ? {} : { pattern }),
    ...(priority === undefined ? {} : { priority }),
  });
}

/** Unknown keys first, then the fields in the schema's order (tool, action, pattern, priority). */
function firstProblem(problems: readonly ConfigProblem[]): ConfigProblem | undefined {
  const rank = (p: ConfigProblem): number => (p.unknownKeys ? -1 : p.path.length === 0 ? -2 : KEYS.indexOf(p.path[0]!));
  return [...problems].sort((a, b) => rank(a) - rank(b))[0];
}

function describe(problem: ConfigProblem, spelled: (key: string) => string): string {
  if (problem.unknownKeys) {
    return `unknown key ${problem.unknownKeys.map((k) => `"${k}"`).join(', ')} (allowed: ${KEYS.join(', ')})`;
  }
  const expected = String(problem.schema.description ?? 'valid');
  if (problem.path.length === 0) return `expected ${expected}, got ${kindOf(problem.value)}`;
  const [key, ...rest] = problem.path;
  return `"${[spelled(key!), ...rest].join('.')}" must be ${expected}, got ${kindOf(problem.value)}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}
