/**
 * Permission rules, their evaluation in layers, and the approval types.
 *
 * @module
 */
export type { PermissionAction, PermissionRule, PermissionRuleInput, SolonPermissionRule } from './permission-rule.js';
export { describeRule } from './permission-rule.js';
export { InvalidPermissionRuleError } from './invalid-permission-rule-error.js';
export { parsePermissionRules } from './parse-permission-rules.js';
export { ruleMatches } from './rule-matches.js';
export { evaluateRules, type PermissionDecision } from './evaluate-rules.js';
export { DEFAULT_RULES } from './default-rules.js';
export { PermissionPolicy, type PermissionPolicyOptions } from './permission-policy.js';
export { commandParts, type CommandParts } from './bash/command-parts.js';
export type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from './approval.js';
