import type { Static } from 'typebox';
import type { PermissionAction, PermissionRule } from './permission-rule.js';

const ACTIONS = ['allow', 'deny', 'ask'] as const satisfies readonly PermissionAction[];

/**
 * The shape of one permission rule, written once: `parsePermissionRules` checks untrusted
 * rules against it, and each `description` is what its error message says a field must be.
 * A plain JSON schema literal (its type read by TypeBox's `Static`, a type-only import): the
 * TypeBox builders would load some 370 modules at run time to make the same object.
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

// The public `PermissionRule` keeps its documented interface; this fails to compile the day
// the schema and the interface disagree on a key, on which keys are required, or on a type.
type Rule = Static<typeof PERMISSION_RULE_SCHEMA>;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterface: Same<keyof Rule, keyof PermissionRule> &
  Same<RequiredKeys<Rule>, RequiredKeys<PermissionRule>> &
  (Rule extends PermissionRule ? true : false) = true;
void schemaMatchesInterface;
