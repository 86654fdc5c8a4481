import { globCostProblem } from '../validation/glob-cost.js';
import { compileCommandPattern } from './command-pattern.js';
import type { PermissionRule } from './permission-rule.js';

const RULE_ADVICE = 'Write the rule with fewer wildcards (e.g. "secrets/**" or "**/*.pem"), or split it into several rules.';

/**
 * Why matching a rule's pattern could freeze the process, or `undefined` when it is cheap.
 * A path pattern is a picomatch regex, run on the main thread against paths the model
 * writes: `*a*b*c*d*` against one long name backtracks for minutes, and a workspace
 * definition (untrusted) may add deny and ask rules. So path patterns get the limits globs
 * of the search tools get (`globCostProblem`). A `bash` rule's pattern is read as free text
 * in linear time (`compileCommandPattern`) and needs none; one using the syntax only picomatch
 * reads is refused, since picomatch's `*` never crosses a `..` path segment.
 *
 * @example
 * ```ts
 * rulePatternProblem({ tool: 'read', action: 'deny', pattern: 'secrets/**' }); // undefined
 * rulePatternProblem({ tool: 'read', action: 'deny', pattern: '*a*b*c*' }); // 'pattern "*a*b*c*" has too many wildcards: ...'
 * ```
 */
export function rulePatternProblem(rule: PermissionRule): string | undefined {
  if (rule.pattern === undefined) return undefined;
  if (rule.tool === 'bash') {
    if (compileCommandPattern(rule.pattern) !== undefined) return undefined;
    // picomatch's reading of these never crosses a `..` path segment: a deny would miss `rm -rf a/../b`.
    return `pattern ${JSON.stringify(rule.pattern)} uses syntax bash patterns do not take (a leading "!", an extglob group like @(a|b), a POSIX class like [[:alpha:]]): write one rule per alternative, or use braces ({a,b}) and classes ([a-z])`;
  }
  return globCostProblem(rule.pattern, 'pattern', RULE_ADVICE);
}
