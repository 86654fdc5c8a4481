/**
 * A bash line's writes judged by the user's `write` and `edit` rules: under
 * `deny write src/**`, `echo x > src/a.ts`, `cp y src/` or `sed -i ... src/a.ts` is denied
 * whatever the bash rules allow, as the write tool would be. Only deny and ask decisions
 * count (an allow of a path vouches for nothing else the line does), and only user rules:
 * the defaults' asks for `.env*` are left to the bash rules, and the files other programs
 * run make a line unreadable already (`executed-writes`).
 *
 * @module
 */
import { commandParts } from './bash/command-parts.js';
import { evaluateSubject } from './evaluate-rules.js';
import { patternsOverlap } from './pattern-overlap.js';
import { STRENGTH, type PermissionDecision } from './permission-decision.js';
import { describeRule, type PermissionRule } from './permission-rule.js';
import { namesTool } from './rule-matches.js';
import { writeTargets, type WriteTarget } from './bash/writes/write-targets.js';
import type { LinkWalker } from './link-walker.js';
import { linkedTarget, type LinkedTarget } from './linked-targets.js';
import { quoted } from './quoted.js';

/** The tools whose rules judge a bash line's writes. */
const WRITE_TOOLS = ['write', 'edit'] as const;

/**
 * Whether some rule denies or asks about writing or editing (a rule for `write`, `edit` or a
 * tool pattern naming one, like `*`): only then is a bash line's writes worth resolving.
 */
export function limitsWrites(rules: readonly PermissionRule[]): boolean {
  return rules.some((rule) => rule.action !== 'allow' && WRITE_TOOLS.some((tool) => namesTool(rule.tool, tool)));
}

/**
 * The strictest deny or ask that `rules` give a write of `line`, judging each path it writes
 * as the write and edit tools' subjects are judged (priorities included), each shape of a
 * path known only when it runs by the deny and ask rules that could match it, and a command
 * writing paths the line does not show (`tar -x`) by every such rule; `undefined` when none.
 * A line the checker cannot read for another reason (`python3 -c ...`) is left to the bash
 * rules: counted as writing anything, `sudo tee out/x` (is `out/x` a program?) would be too.
 * With `links` (the disk, read when the line is decided) a write whose way passes a symbolic
 * link is judged where it really lands as well (see `linked-targets`).
 * Call it only when {@link limitsWrites} holds for `rules`: otherwise it decides nothing, at
 * the cost of reading every write.
 *
 * @example
 * ```ts
 * const rules = [{ tool: 'write', action: 'deny', pattern: 'src/**' }] as const;
 * decideWrites(rules, 'echo x > src/a.ts')?.action; // 'deny'
 * decideWrites(rules, 'echo x > out.txt'); // undefined
 * ```
 */
export function decideWrites(rules: readonly PermissionRule[], line: string, links?: LinkWalker): PermissionDecision | undefined {
  // The caller asks only when `limitsWrites(rules)` holds (the policy keeps that answer).
  const writes = commandParts(line).writes;
  if (writes === undefined) return undefined;
  let best: PermissionDecision | undefined;
  const consider = (decision: PermissionDecision): void => {
    if (best === undefined || STRENGTH[decision.action] > STRENGTH[best.action]) best = decision;
  };
  for (const shown of writeTargets(writes, line)) {
    const linked = links === undefined ? undefined : linkedTarget(shown, links);
    for (const target of linked === undefined ? [shown] : [shown, linked]) {
      judgeTarget(rules, target, consider);
      if (best?.action === 'deny') return best;
    }
  }
  return best;
}

/** Judges one target's paths and shapes by the write and edit rules, each deny or ask handed to `consider`. */
function judgeTarget(rules: readonly PermissionRule[], target: WriteTarget | LinkedTarget, consider: (decision: PermissionDecision) => void): void {
  for (const tool of WRITE_TOOLS) {
    for (const path of target.paths) {
      const decided = evaluateSubject(rules, tool, path);
      if (decided?.rule !== undefined && decided.action !== 'allow') consider(explain(decided.rule, tool, target, path));
    }
    for (const shape of target.shapes) {
      const rule = shapeRule(rules, tool, shape);
      if (rule !== undefined) consider(explain(rule, tool, target, shape));
    }
  }
}

/**
 * The strictest deny or ask rule for `tool` that some path of `shape` could match (a rule
 * without a pattern matches all), unless an allow of higher priority holds for every path of
 * the shape (see {@link shapeWithin}).
 */
function shapeRule(rules: readonly PermissionRule[], tool: string, shape: string): PermissionRule | undefined {
  let best: PermissionRule | undefined;
  const allows = rules.filter((rule) => rule.action === 'allow' && namesTool(rule.tool, tool) && rule.pattern !== undefined && shapeWithin(shape, rule.pattern));
  for (const rule of rules) {
    if (rule.action === 'allow' || !namesTool(rule.tool, tool)) continue;
    if (allows.some((allow) => (allow.priority ?? 0) > (rule.priority ?? 0))) continue;
    if (rule.pattern !== undefined && !patternsOverlap(freeText(rule.pattern), shape)) continue;
    if (best === undefined || STRENGTH[rule.action] > STRENGTH[best.action] || (rule.action === best.action && (rule.priority ?? 0) > (best.priority ?? 0))) best = rule;
  }
  return best;
}

/**
 * Whether every path of a shape is under a pattern's folder: only a pattern `dir/**` with no
 * wildcard in `dir`, and a shape that starts with `dir/` and whose every later segment is
 * plain or a glob that cannot match `..` (none starts with `.` or holds a `[` class; bash's
 * `*` and `?` never match a leading dot). A shape from a part known only when the line runs
 * starts with its wildcard (it may hold `../`), so it is never within: in doubt the deny holds.
 */
function shapeWithin(shape: string, pattern: string): boolean {
  const dir = /^(?:\.\/)*([^*?[\]{}!\\]+?)\/\*\*$/.exec(pattern)?.[1];
  if (dir === undefined || dir.replace(/^\//, '').split('/').some((s) => s === '..' || s === '.' || s === '') || !shape.startsWith(`${dir}/`)) return false;
  return shape.slice(dir.length + 1).split('/').every((segment) => segment !== '' && !segment.startsWith('.') && !segment.includes('['));
}

/**
 * A path pattern as free text, as a glob reads it: `/**` may match no folder at all
 * (`src/**` matches `src`), and so may `**\/` (`**\/*.pem` matches `a.pem`).
 */
function freeText(pattern: string): string {
  return pattern.replace(/^(?:\.\/)+/, '').replace(/\/\*\*(?=\/|$)/g, '{,/*}').replace(/(^|\/)\*\*\//g, '$1{,*/}');
}

/** The decision, saying what the line writes, where it was judged, and which rule holds. */
function explain(rule: PermissionRule, tool: string, target: WriteTarget | LinkedTarget, judged: string): PermissionDecision {
  const verdict = rule.action === 'deny' ? 'denied' : 'approval required';
  const holds = rule.action === 'deny' ? 'denies' : 'asks about';
  return { action: rule.action, reason: `${verdict}: ${whatIsWritten(target, judged)}, and the ${tool} rule ${describeRule(rule)} ${holds} ${target.unseen ? 'some' : 'that'} path`, rule };
}

/** What the line writes, as a reason says it: where it was judged, and through what. */
function whatIsWritten(target: WriteTarget | LinkedTarget, judged: string): string {
  if (target.unseen) return `the command has ${target.written}`;
  const writes = `the command writes ${quoted(target.written)}`;
  if (!target.paths.includes(judged)) {
    if (!('through' in target)) return `${writes}, which may be any path fitting ${quoted(judged)} when it runs`;
    return judged === '*' ? `${writes}, which ${target.through}` : `${writes}, which ${target.through} (judged as any path fitting ${quoted(judged)})`;
  }
  if ('through' in target) return `${writes}, which ${target.through}${target.through.includes(quoted(judged)) ? '' : ` (judged as ${quoted(judged)})`}`;
  return `${writes}${judged === target.written ? '' : ` (judged as ${quoted(judged)})`}`;
}
