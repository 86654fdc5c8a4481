import picomatch from 'picomatch';
import { commandParts } from './bash/command-parts.js';
import { compileCommandPattern } from './command-pattern.js';
import { foldCase } from './fold-case.js';
import { patternsOverlap } from './pattern-overlap.js';
import type { CaseFreeRule } from './default-rules.js';
import type { PermissionRule } from './permission-rule.js';

type Matcher = (subject: string) => boolean;

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const pathMatchers = new Map<string, Matcher>();
const commandMatchers = new Map<string, Matcher>();
const freeTextMatchers = new Map<string, Matcher | null>();

/**
 * Whether a rule applies to a call of `toolName` whose main argument is `subject`.
 * A rule with a pattern never matches a call without a subject.
 *
 * Paths use ordinary globs (`src/*` stays in `src/`, `**` crosses folders, dot files
 * match). Commands (`bash`) and urls are free text, so there `*` also crosses `/` and spaces:
 * `git *` matches `git log src/a.ts`. A `bash` command line is matched part by part (see
 * `commandParts`): a deny or ask rule matches when its pattern matches any simple command of
 * the line or any other spelling of one (`/bin/rm x`, `sudo rm x`, `sh -c 'rm x'`...); an
 * allow rule only when it matches every simple command, so `git *` does not match
 * `git status; rm -rf /`.
 *
 * @example
 * ```ts
 * ruleMatches({ tool: 'bash', action: 'allow', pattern: 'git *' }, 'bash', 'git log src'); // true
 * ruleMatches({ tool: 'bash', action: 'deny', pattern: 'rm *' }, 'bash', 'ls; /bin/rm x'); // true
 * ruleMatches({ tool: 'read', action: 'ask', pattern: 'secrets/*' }, 'read', 'secrets/key'); // true
 * ```
 */
export function ruleMatches(rule: PermissionRule, toolName: string, subject: string | undefined): boolean {
  if (toolName !== 'bash' || rule.pattern === undefined || subject === undefined) return matchesSubject(rule, toolName, subject);
  if (!namesTool(rule.tool, toolName)) return false;
  const parts = commandParts(subject);
  const matches = (text: string): boolean => matchesSubject(rule, toolName, text);
  if (rule.action === 'allow') return parts.commands.every(matches);
  return parts.commands.some(matches) || parts.variants.some(matches) || (parts.shapes ?? []).some((shape) => mayMatchShape(rule, toolName, shape));
}

/**
 * Whether a deny or ask rule could match a command whose arguments are only known when it
 * runs, given as its shape (`CommandParts.shapes`): some text fits both the rule's pattern
 * and the shape. An allow rule never holds for a shape: it vouches only for what is shown.
 */
export function mayMatchShape(rule: PermissionRule, toolName: string, shape: string): boolean {
  if (rule.action === 'allow' || rule.pattern === undefined || !namesTool(rule.tool, toolName)) return false;
  return patternsOverlap(rule.pattern, shape);
}

/**
 * Whether a rule applies to one subject taken as a whole: no splitting of command lines.
 * What {@link ruleMatches} does for each part of a command line.
 */
export function matchesSubject(rule: PermissionRule, toolName: string, subject: string | undefined): boolean {
  if (!namesTool(rule.tool, toolName)) return false;
  if (rule.pattern === undefined) return true;
  if (subject === undefined) return false;
  // Folding both sides (not picomatch's `nocase`) reads every kind of subject alike, long ones too.
  const nocase = (rule as CaseFreeRule).nocase === true;
  const pattern = nocase ? foldCase(rule.pattern) : rule.pattern;
  const text = nocase ? foldCase(subject) : subject;
  const command = toolName === 'bash' || URL_LIKE.test(text);
  if (command) return commandMatcher(pattern)(text);
  return text.length > MAX_PATH_LENGTH ? matchesLongSubject(rule.action, pattern, text) : pathMatcher(pattern)(normalisePath(text));
}

/** The longest path a system takes (Linux's PATH_MAX): a path pattern's regex is only run on subjects this short. */
const MAX_PATH_LENGTH = 4096;

/**
 * A subject longer than any path (a model's 1 MB "path", an MCP tool's long query), where a
 * path pattern's backtracking regex could take minutes even within the limits of
 * `rulePatternProblem`. It is judged on the safe side: a deny or ask rule holds when its
 * pattern, read as free text (`*` crossing `/` too, `**` folders possibly none, so it
 * matches at least what the path reading would), matches, or when it cannot be read so; an allow rule never holds.
 */
function matchesLongSubject(action: PermissionRule['action'], pattern: string, subject: string): boolean {
  if (action === 'allow') return false;
  const freeText = freeTextMatcher(pattern);
  return freeText === null || freeText(subject);
}

/** A path pattern read as free text, compiled once (`null`: it cannot be read so). */
function freeTextMatcher(pattern: string): Matcher | null {
  let matcher = freeTextMatchers.get(pattern);
  if (matcher === undefined) {
    // `**/` and `/**` also match nothing (`**/*.pem` matches `a.pem`): read as `*`, they still do.
    matcher = compileCommandPattern(pattern.replace(/\*\*\/|\/\*\*/g, '*')) ?? null;
    freeTextMatchers.set(pattern, matcher);
  }
  return matcher;
}

/**
 * Whether a rule's `tool` names the tool `toolName`: `*` names every tool, a name ending in
 * `*` every tool whose name starts with the rest (`mcp__github__*`: each tool of that MCP
 * server, whose names are known only once it runs), any other name only itself.
 *
 * @example
 * ```ts
 * namesTool('mcp__github__*', 'mcp__github__create_issue'); // true
 * namesTool('read', 'read'); // true
 * namesTool('read', 'reader'); // false
 * ```
 */
export function namesTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === '*' || ruleTool === toolName) return true;
  return ruleTool.endsWith('*') && toolName.startsWith(ruleTool.slice(0, -1));
}

/**
 * Dot files match; and `s` (dotAll) makes the regex's `.`, which picomatch writes for the
 * text a `**` spans (and for "some character follows"), match line terminators too (`\n`,
 * `\r`, U+2028, U+2029), which a folder name may hold. Without it the default ask on
 * `.env` files missed `pkg\nx/.env`, and an allow rule `src/**` missed `src/a\nb/c.ts`.
 * `s` changes only what `.` matches, so no other name gains or loses a match; and it
 * replaces picomatch's `nocase` flag, unused here (see `foldCase`).
 */
const PICOMATCH_OPTIONS = { dot: true, flags: 's' } as const;

function pathMatcher(pattern: string): Matcher {
  let matcher = pathMatchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(normalisePath(pattern), PICOMATCH_OPTIONS);
    pathMatchers.set(pattern, matcher);
  }
  return matcher;
}

function commandMatcher(pattern: string): Matcher {
  let matcher = commandMatchers.get(pattern);
  if (!matcher) {
    // Free text, in linear time (command-pattern.ts); picomatch only for the syntax it alone
    // reads (`!`, extglobs), where `bash: true` makes a single `*` cross `/` as well.
    matcher = compileCommandPattern(pattern) ?? picomatch(pattern, { ...PICOMATCH_OPTIONS, bash: true });
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
