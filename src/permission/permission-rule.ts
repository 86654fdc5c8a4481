import type { Static } from 'typebox';
import { quoted } from './quoted.js';

/** What a matching rule does with a tool call: run it, refuse it, or ask a human first. */
export type PermissionAction = 'allow' | 'deny' | 'ask';

/** Every {@link PermissionAction}, in the order they beat each other at equal priority. */
export const PERMISSION_ACTIONS: readonly PermissionAction[] = Object.freeze(['deny', 'ask', 'allow']);

const ACTIONS = ['allow', 'deny', 'ask'] as const satisfies readonly PermissionAction[];

/**
 * The shape of one permission rule, written once: `parsePermissionRules` checks untrusted
 * rules against it, each `description` is what its error message says a field must be, and
 * {@link PermissionRule} is its type. A plain JSON schema literal (its type read by TypeBox's
 * `Static`, a type-only import): the TypeBox builders would load some 370 modules at run time
 * to make the same object.
 *
 * @internal
 */
export const PERMISSION_RULE_SCHEMA = {
  type: 'object',
  required: ['tool', 'action'],
  properties: {
    tool: { type: 'string', pattern: '\\S', description: 'a non-empty string (a tool name or "*")' },
    action: { enum: ACTIONS, type: 'string', description: `one of ${ACTIONS.join(', ')}` },
    pattern: { type: 'string', minLength: 1, description: 'a non-empty glob string' },
    priority: { type: 'number', description: 'a finite number' },
  },
  additionalProperties: false,
  description: 'an object like {tool, action, pattern?, priority?}',
} as const;

/**
 * One permission rule (the type of its schema). A rule matches a call when `tool` names the
 * tool (or is `*`) and, if it has a `pattern`, the glob matches the call's subject (its
 * command, path or url). Among matching rules the highest `priority` (default 0) wins; at
 * equal priority deny beats ask beats allow.
 *
 * @property tool - A tool name, or `*` for every tool.
 * @property action - What a match does to the call: `allow` runs it, `deny` refuses it, `ask` asks the approval handler first.
 * @property pattern - A glob matched against the call's subject; without it the rule matches every call.
 * @property priority - Higher wins; default 0.
 *
 * @example
 * ```ts
 * const rules: PermissionRule[] = [
 *   { tool: 'bash', action: 'allow', pattern: 'git *' },
 *   { tool: 'bash', action: 'deny', pattern: 'rm *', priority: 10 },
 * ];
 * ```
 */
export interface PermissionRule extends Readonly<Static<typeof PERMISSION_RULE_SCHEMA>> {}

/**
 * A permission rule in the Solon harness's spelling: `toolName` for `tool`, `behavior` for
 * `action` (in any case: `ALLOW` is `allow`), an empty `pattern` meaning a rule for the
 * whole tool, and `priority` as ours (higher wins). Accepted wherever rules are
 * (engine options, definitions) and read as a {@link PermissionRule}.
 *
 * @example
 * ```ts
 * const rule: SolonPermissionRule = { toolName: 'bash', behavior: 'deny', pattern: 'rm *', priority: 10 };
 * ```
 */
export interface SolonPermissionRule {
  /** A tool name, or `*` for every tool: our `tool`. */
  readonly toolName: string;
  /** Our `action`; Solon's upper-case `ALLOW` / `DENY` / `ASK` are read in lower case. */
  readonly behavior: PermissionAction | Uppercase<PermissionAction>;
  /** A glob matched against the call's subject; empty or absent, the rule matches every call. */
  readonly pattern?: string;
  /** Higher wins; default 0. */
  readonly priority?: number;
}

/** A rule as engine options and definitions accept it: ours, or Solon's spelling of it. */
export type PermissionRuleInput = PermissionRule | SolonPermissionRule;

/**
 * A rule as a short, human-readable text, used in permission reasons.
 *
 * @example
 * ```ts
 * describeRule({ tool: 'bash', action: 'deny', pattern: 'rm *' });
 * // '{tool: "bash", action: deny, pattern: "rm *"}'
 * ```
 */
export function describeRule(rule: PermissionRule): string {
  const parts = [`tool: ${quoted(rule.tool)}`, `action: ${rule.action}`];
  if (rule.pattern !== undefined) parts.push(`pattern: ${quoted(rule.pattern)}`);
  if (rule.priority !== undefined) parts.push(`priority: ${rule.priority}`);
  return `{${parts.join(', ')}}`;
}
