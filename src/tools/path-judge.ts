import { isAbsolute } from 'node:path';
import { PermissionPolicy } from '../permission/permission-policy.js';
import type { PermissionAction } from '../permission/permission-rule.js';
import type { ToolContext } from './tool.js';

/**
 * Judges one path for one tool: `allow`, `deny` or `ask`. The path is relative to the
 * workspace in posix form when inside it, else absolute (see {@link ToolContext.judgePath}).
 */
export type PathJudge = (path: string) => PermissionAction;

/** The default rules alone, for contexts built without a judge. */
const DEFAULT_POLICY = new PermissionPolicy();

/**
 * The judge a built-in tool uses for the paths it finds itself: the context's own, or,
 * when a hand-built context has none, the default rules with every outside path denied
 * (fail-closed: without the agent's rules no explicit allow can widen the workspace).
 *
 * @example
 * ```ts
 * const judge = pathJudge(context, 'grep');
 * judge('src/a.ts'); // 'allow'
 * judge('.env'); // 'ask' under the default rules
 * ```
 */
export function pathJudge(context: ToolContext, toolName: string): PathJudge {
  const judge = context.judgePath;
  if (judge) return (path) => judge(toolName, path);
  return (path) => (isAbsolute(path) ? 'deny' : DEFAULT_POLICY.evaluate(toolName, path).action);
}

/** What is left of a list of found paths once each is judged. */
export interface JudgedPaths<T> {
  /** The items whose path is allowed, in their order. */
  readonly allowed: T[];
  /** How many would need approval: a search leaves them out rather than ask for each. */
  readonly asked: number;
}

/**
 * Splits found items by their judged path: allowed ones are kept, denied ones dropped
 * silently (as if they were not there), the ones needing approval only counted.
 *
 * @example
 * ```ts
 * judgePaths(['a.ts', '.env', 'secret/k'], (p) => p, judge); // { allowed: ['a.ts'], asked: 1 }
 * ```
 */
export function judgePaths<T>(items: readonly T[], pathOf: (item: T) => string, judge: PathJudge): JudgedPaths<T> {
  const allowed: T[] = [];
  let asked = 0;
  for (const item of items) {
    const action = judge(pathOf(item));
    if (action === 'allow') allowed.push(item);
    else if (action === 'ask') asked += 1;
  }
  return { allowed, asked };
}

/**
 * The note a search adds when it left out items needing approval, or `''` for none.
 *
 * @param count - how many were left out.
 * @param noun - what they are (`file`, `entry`), singular.
 * @param hint - how to get at one, e.g. `to search one, give it as path, which asks for approval`.
 */
export function approvalNote(count: number, noun: string, hint: string): string {
  if (count === 0) return '';
  const plural = count === 1 ? noun : noun === 'entry' ? 'entries' : `${noun}s`;
  return `\n\n(${count} ${plural} needing approval ${count === 1 ? 'was' : 'were'} left out; ${hint}.)`;
}
