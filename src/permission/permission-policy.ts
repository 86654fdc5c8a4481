import { DEFAULT_RULES } from './default-rules.js';
import { evaluateRules, type PermissionDecision } from './evaluate-rules.js';
import type { PermissionAction, PermissionRule } from './permission-rule.js';
import { ruleMatches } from './rule-matches.js';

/** Options of a {@link PermissionPolicy}. */
export interface PermissionPolicyOptions {
  /** The engine's rules (`permissionRules`). */
  readonly rules?: readonly PermissionRule[];
  /** The agent definition's rules; they compete with the engine's by priority. */
  readonly agentRules?: readonly PermissionRule[];
  /** The policy of the agent that delegated to this one: its denies are kept. */
  readonly parent?: PermissionPolicy;
  /** Used only when no user rule matches; default {@link DEFAULT_RULES}. */
  readonly defaults?: readonly PermissionRule[];
}

const DEFAULT_VERB: Readonly<Record<PermissionAction, string>> = {
  allow: 'is allowed',
  ask: 'asks for approval',
  deny: 'is denied',
};

/**
 * The permission layers of one agent: user rules (engine and definition, competing by
 * priority), then defaults, then the parent's denies on top.
 *
 * @example
 * ```ts
 * const engine = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'git *' }] });
 * engine.evaluate('bash', 'git status').action; // 'allow'
 * engine.evaluate('bash', 'make').reason; // 'bash asks for approval by default'
 * const reviewer = engine.child([{ tool: 'write', action: 'deny' }]);
 * reviewer.evaluate('write', 'a.ts').action; // 'deny'
 * ```
 */
export class PermissionPolicy {
  /** The engine's rules. */
  readonly rules: readonly PermissionRule[];
  /** This agent's own rules. */
  readonly agentRules: readonly PermissionRule[];
  /** The rules used when no user rule matches. */
  readonly defaults: readonly PermissionRule[];
  /** The delegating agent's policy, if any. */
  readonly parent: PermissionPolicy | undefined;

  constructor(options: PermissionPolicyOptions = {}) {
    this.rules = Object.freeze([...(options.rules ?? [])]);
    this.agentRules = Object.freeze([...(options.agentRules ?? [])]);
    this.defaults = options.defaults ?? DEFAULT_RULES;
    this.parent = options.parent;
  }

  /**
   * Decides a call of `toolName` whose main argument is `subject` (a command, a path
   * relative to the workspace or absolute, a url). Nothing matching means allow; a deny of
   * any ancestor wins over whatever this policy says.
   */
  evaluate(toolName: string, subject?: string): PermissionDecision {
    const own = this.evaluateOwn(toolName, subject);
    if (own.action === 'deny' || this.parent === undefined) return own;
    const inherited = this.parent.evaluate(toolName, subject);
    if (inherited.action !== 'deny') return own;
    return {
      action: 'deny',
      reason: `denied by the parent agent: ${inherited.reason}`,
      ...(inherited.rule ? { rule: inherited.rule } : {}),
    };
  }

  /** A policy for a delegated agent: the same engine rules, `agentRules` as its own, this as parent. */
  child(agentRules: readonly PermissionRule[]): PermissionPolicy {
    return new PermissionPolicy({ rules: this.rules, agentRules, parent: this, defaults: this.defaults });
  }

  /**
   * Whether `toolName` may touch `absolutePath` although it lies outside the workspace.
   * Only an explicit user `allow` rule of this policy for the tool (or `*`) whose pattern
   * matches the path widens the workspace; default rules and `ask` rules never do, and any
   * matching deny here or in an ancestor (or a deny decision) keeps the path out.
   */
  allowsOutsideWorkspace(toolName: string, absolutePath: string): boolean {
    const explicitlyAllowed = this.userRules().some(
      (rule) => rule.action === 'allow' && rule.pattern !== undefined && ruleMatches(rule, toolName, absolutePath),
    );
    if (!explicitlyAllowed) return false;
    for (let policy: PermissionPolicy | undefined = this; policy; policy = policy.parent) {
      const denied = policy.userRules().some((rule) => rule.action === 'deny' && ruleMatches(rule, toolName, absolutePath));
      if (denied) return false;
    }
    return this.evaluate(toolName, absolutePath).action !== 'deny';
  }

  private userRules(): readonly PermissionRule[] {
    return [...this.rules, ...this.agentRules];
  }

  private evaluateOwn(toolName: string, subject: string | undefined): PermissionDecision {
    const user = evaluateRules(this.userRules(), toolName, subject);
    if (user) return user;
    const fallback = evaluateRules(this.defaults, toolName, subject);
    if (fallback?.rule) {
      const target = fallback.rule.pattern !== undefined && subject !== undefined ? ` for "${subject}"` : '';
      return { ...fallback, reason: `${toolName} ${DEFAULT_VERB[fallback.action]} by default${target}` };
    }
    return { action: 'allow', reason: `no rule matches ${toolName}; allowed` };
  }
}
