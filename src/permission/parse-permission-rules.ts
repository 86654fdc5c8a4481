import { InvalidPermissionRuleError } from './invalid-permission-rule-error.js';
import { PERMISSION_ACTIONS, type PermissionAction, type PermissionRule } from './permission-rule.js';

const KNOWN_KEYS = new Set(['tool', 'action', 'pattern', 'priority']);

/**
 * Validates untrusted rule data (engine options, YAML front matter) and returns frozen
 * rules. `undefined` and `null` (an empty YAML key) mean no rules. Unknown keys are
 * refused: a misspelt `pattern` would otherwise silently widen a rule to every call.
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
  const fail = (problem: string): never => {
    throw new InvalidPermissionRuleError(where, index, problem);
  };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return fail(`expected an object like {tool, action, pattern?, priority?}, got ${kindOf(item)}`);
  }
  const record = item as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) {
    fail(`unknown key ${unknown.map((k) => `"${k}"`).join(', ')} (allowed: tool, action, pattern, priority)`);
  }
  const { tool, action, pattern, priority } = record;
  if (typeof tool !== 'string' || tool.trim() === '') {
    fail(`"tool" must be a non-empty string (a tool name or "*"), got ${kindOf(tool)}`);
  }
  if (typeof action !== 'string' || !PERMISSION_ACTIONS.includes(action as PermissionAction)) {
    fail(`"action" must be one of allow, deny, ask, got ${kindOf(action)}`);
  }
  if (pattern !== undefined && (typeof pattern !== 'string' || pattern === '')) {
    fail(`"pattern" must be a non-empty glob string, got ${kindOf(pattern)}`);
  }
  if (priority !== undefined && (typeof priority !== 'number' || !Number.isFinite(priority))) {
    fail(`"priority" must be a finite number, got ${kindOf(priority)}`);
  }
  return Object.freeze({
    tool: (tool as string).trim(),
    action: action as PermissionAction,
    ...(pattern === undefined ? {} : { pattern: pattern as string }),
    ...(priority === undefined ? {} : { priority: priority as number }),
  });
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}
