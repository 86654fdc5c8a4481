import type { StandardSchemaV1 } from '@standard-schema/spec';
import { listProblems, quotedName } from './args-validator.js';

type Segment = PropertyKey | StandardSchemaV1.PathSegment;

/**
 * Standard Schema issues as the same readable list ajv's errors become (`"path" <message>`,
 * `the arguments must have the property "path"`, `"tasks.0" has an unknown property "x"`),
 * joined by `; ` (the first ten, then how many more), so a zod or valibot tool fails like a built-in one. A missing or unknown
 * key is recognised from the arguments themselves (and zod's `keys`), not from one
 * library's wording; any other issue keeps its library's message.
 *
 * @example
 * ```ts
 * describeIssues([{ message: 'Invalid input: expected string, received number', path: ['path'] }], { path: 3 });
 * // '"path" invalid input: expected string, received number'
 * ```
 */
export function describeIssues(issues: readonly StandardSchemaV1.Issue[], args: unknown): string {
  const lines = issues.flatMap((issue) => describeIssue(issue, args));
  return listProblems([...new Set(lines)]) || 'the arguments are invalid';
}

function describeIssue(issue: StandardSchemaV1.Issue, args: unknown): string[] {
  const path = (issue.path ?? []).map(keyOf);
  const unrecognized = (issue as { readonly keys?: unknown }).keys;
  if (Array.isArray(unrecognized) && unrecognized.length > 0 && unrecognized.every((k) => typeof k === 'string')) {
    // zod's strict object: one issue at the object naming every extra key.
    return unrecognized.map((key: string) => `${where(path)} has an unknown property ${quotedName(key)}`);
  }
  if (path.length > 0) {
    const parent = valueAt(args, path.slice(0, -1));
    const key = path.at(-1)!;
    if (isRecord(parent) && (typeof key === 'string' || typeof key === 'number')) {
      const owner = where(path.slice(0, -1));
      if (!Object.hasOwn(parent, key)) return [`${owner} must have the property ${quotedName(String(key))}`];
      // valibot's strict object points at the extra key itself, as a key (not its value).
      if (lastOrigin(issue) === 'key') return [`${owner} has an unknown property ${quotedName(String(key))}`];
    }
  }
  return [`${where(path)} ${lowerFirst(issue.message)}`];
}

function keyOf(segment: Segment): PropertyKey {
  return typeof segment === 'object' && segment !== null ? segment.key : segment;
}

/** `"a.b.0"` as ajv's errors name a place, or `the arguments` for the whole object. */
function where(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'the arguments' : quotedName(path.map(String).join('.'));
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lastOrigin(issue: StandardSchemaV1.Issue): unknown {
  const last = issue.path?.at(-1);
  return typeof last === 'object' && last !== null ? (last as { readonly origin?: unknown }).origin : undefined;
}

/** `Invalid input` → `invalid input`, after a quoted path; `URL ...` stays as it is. */
function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message[0]!.toLowerCase() + message.slice(1) : message;
}
