/**
 * How much work compiling a schema from outside is (an AG-UI frontend tool's, an MCP tool's):
 * ajv compiles synchronously, holding the event loop of every run and client of the process.
 * Its size in bytes does not say: ajv copies the code of a `$def` without refs into every
 * place a `$ref` names it (4 KB of schema: 100 refs to a 100-branch `$def`, 19 s), and nests
 * each branch of an `anyOf`/`oneOf`/`allOf` inside the previous one (1,000 branches: 6 s;
 * 2,000: the stack overflows).
 *
 * @module
 */

import { IN_PLACE_LIST, IN_PLACE_MAP, IN_PLACE_ONE, NESTED_LIST, NESTED_MAP, NESTED_ONE, isSchema, resolve, shown, subschemas, type Schema } from './schema-walk.js';

/** Branches of one `anyOf`, `oneOf` or `allOf`: 64 compile in milliseconds. */
const MAX_BRANCHES = 64;
/** Subschemas compiled, each inlined copy counted: about a second of compiling at most. */
const MAX_COMPILED = 2_000;
/**
 * Regexes compiled (`pattern` values and `patternProperties` keys, each inlined copy
 * counted, as ajv compiles one at every place it stands): RE2 takes 0.3 ms to compile the
 * smallest and some 1 to 2.5 ms one of 1,000 steps, so 500 are at most about a second, like
 * {@link MAX_COMPILED}. Real tools' schemas have a few, tens at most (a format per field).
 */
const MAX_PATTERNS = 500;
/** ajv's own test of whether a target has refs (`hasRef`): one without is inlined at every ref. */
const REF_KEYWORDS = new Set(['$ref', '$recursiveRef', '$dynamicRef']);
const ONE = [...IN_PLACE_ONE, ...NESTED_ONE];
const LIST = [...IN_PLACE_LIST, ...NESTED_LIST];
/** `$defs` are compiled where a ref names them, not where they stand. */
const COMPILED_MAP = [...IN_PLACE_MAP, ...NESTED_MAP.filter((key) => key !== '$defs' && key !== 'definitions')];

/**
 * Why compiling `root` (its `$ref`s `#` pointers, none looping in place: `unusableRefs` checks
 * that first) is too much work, or `undefined`. Counted as ajv compiles: a `$ref` to a target
 * with no refs of its own adds the target's subschemas at every use; a target with refs is
 * compiled once, as a function the uses call. The count stops past the limit.
 */
export function costlySchema(root: Schema): string | undefined {
  const wide = widestBranching(root);
  if (wide !== undefined) return wide;
  const inlined = new Map<Schema, Size>();
  const called = new Set<Schema>([root]);
  const functions = [root];
  let total = 0;
  let patterns = 0;
  while (functions.length > 0) {
    const stack = [functions.pop()!];
    while (stack.length > 0) {
      const at = stack.pop()!;
      total += 1;
      patterns += patternsIn(at);
      const target = typeof at['$ref'] === 'string' ? resolve(root, at['$ref']) : undefined;
      if (target !== undefined && !called.has(target)) {
        // Each target is looked at once (a thousand refs may name it): its size, or 0 when called.
        if (!inlined.has(target)) inlined.set(target, hasRef(target) ? { subschemas: 0, patterns: 0 } : sizeOf(target));
        const size = inlined.get(target)!;
        total += size.subschemas;
        patterns += size.patterns;
        if (size.subschemas === 0) {
          called.add(target);
          functions.push(target);
        }
      }
      if (total > MAX_COMPILED) {
        return `compiling it is too much work: counting a $def again at every $ref that names it (the validator copies one without refs of its own to each), it has more than ${MAX_COMPILED.toLocaleString('en')} subschemas; name a large $def from fewer places, or send a smaller schema`;
      }
      if (patterns > MAX_PATTERNS) {
        return `compiling it is too much work: it has more than ${MAX_PATTERNS} regular expressions (pattern values and patternProperties keys, a $def's counted again at every $ref that names it), each compiled on its own; use enum for fixed values and fewer patterns, or send a smaller schema`;
      }
      stack.push(...subschemas(at, ONE, LIST, COMPILED_MAP).map(([child]) => child));
    }
  }
  return undefined;
}

/** The first `anyOf`, `oneOf` or `allOf` (in `$defs` too) with more than {@link MAX_BRANCHES} branches, as a reason. */
function widestBranching(root: Schema): string | undefined {
  const stack: Array<[Schema, string]> = [[root, '']];
  while (stack.length > 0) {
    const [at, path] = stack.pop()!;
    for (const key of IN_PLACE_LIST) {
      const branches = at[key];
      if (Array.isArray(branches) && branches.length > MAX_BRANCHES) {
        return `its ${key} at ${path === '' ? 'the root' : shown(path)} has ${branches.length} branches, and at most ${MAX_BRANCHES} are compiled here: merge branches (an enum for constant values), or split the tool`;
      }
    }
    for (const [child, key] of subschemas(at, ONE, LIST, [...IN_PLACE_MAP, ...NESTED_MAP])) stack.push([child, `${path}/${key}`]);
  }
  return undefined;
}

/** What inlining a schema compiles: its subschemas, and the regexes in them. */
interface Size {
  readonly subschemas: number;
  readonly patterns: number;
}

/** The subschemas ajv compiles for `schema` where it is inlined (its `$defs` not among them), and their regexes. */
function sizeOf(schema: Schema): Size {
  let size = 0;
  let patterns = 0;
  const stack = [schema];
  while (stack.length > 0) {
    const at = stack.pop()!;
    size += 1;
    patterns += patternsIn(at);
    stack.push(...subschemas(at, ONE, LIST, COMPILED_MAP).map(([child]) => child));
  }
  return { subschemas: size, patterns };
}

/** The regexes ajv compiles for `schema` itself: its `pattern`, and each key of its `patternProperties`. */
function patternsIn(schema: Schema): number {
  const map = schema['patternProperties'];
  return (typeof schema['pattern'] === 'string' ? 1 : 0) + (isSchema(map) ? Object.keys(map).length : 0);
}

/** As ajv's `hasRef`: a ref keyword anywhere in the value, under any key (not only schema keywords). */
function hasRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRef);
  if (!isSchema(value)) return false;
  return Object.entries(value).some(([key, child]) => REF_KEYWORDS.has(key) || hasRef(child));
}
