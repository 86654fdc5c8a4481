import picomatch from 'picomatch';
import type { PermissionRule } from './permission-rule.js';

type Matcher = (subject: string) => boolean;

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const pathMatchers = new Map<string, Matcher>();
const commandMatchers = new Map<string, Matcher>();

/**
 * Whether a rule applies to a call of `toolName` whose main argument is `subject`.
 * A rule with a pattern never matches a call without a subject.
 *
 * Paths use ordinary globs (`src/*` stays in `src/`, `**` crosses folders, dot files
 * match). Commands (`bash`) and urls are free text, so there `*` also crosses `/` and spaces:
 * `git *` matches `git log src/a.ts`. A `*` never crosses a line break, so a multi-line
 * command only matches a pattern written for it.
 *
 * @example
 * ```ts
 * ruleMatches({ tool: 'bash', action: 'allow', pattern: 'git *' }, 'bash', 'git log src'); // true
 * ruleMatches({ tool: 'read', action: 'ask', pattern: 'secrets/*' }, 'read', 'secrets/key'); // true
 * ```
 */
export function ruleMatches(rule: PermissionRule, toolName: string, subject: string | undefined): boolean {
  if (rule.tool !== '*' && rule.tool !== toolName) return false;
  if (rule.pattern === undefined) return true;
  if (subject === undefined) return false;
  const command = toolName === 'bash' || URL_LIKE.test(subject);
  return command ? commandMatcher(rule.pattern)(subject) : pathMatcher(rule.pattern)(normalisePath(subject));
}

function pathMatcher(pattern: string): Matcher {
  let matcher = pathMatchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(normalisePath(pattern), { dot: true });
    pathMatchers.set(pattern, matcher);
  }
  return matcher;
}

function commandMatcher(pattern: string): Matcher {
  let matcher = commandMatchers.get(pattern);
  if (!matcher) {
    // `bash: true` makes a single `*` behave like `**`, so it crosses `/` as well.
    matcher = picomatch(pattern, { dot: true, bash: true });
    commandMatchers.set(pattern, matcher);
  }
  return matcher;
}

/** `./a/b` and `a/b` are the same path; picomatch would not say so. */
function normalisePath(path: string): string {
  let result = path;
  while (result.startsWith('./')) result = result.slice(2);
  return result === '' ? '.' : result;
}
