/**
 * Whether `$ref`s in a JSON schema can be checked against (ajv reads a looping one until the
 * stack overflows, and would fetch a URL): kept with the one validator (`validator.ts`), for
 * every schema that comes from outside: AG-UI frontend tools (`frontend-tools.ts`), MCP tools'
 * input and output schemas (`mcp-tool.ts`, `mcp-output-validator.ts`). A tool author's own
 * schema gets the lenient {@link refLoop} (`tool-input.ts`, `json-schema-validator.ts`), and
 * from `defineTool` (and `HarnessEngine`, for a hand-written tool's `parameters`) the same
 * `costlySchema` and {@link checkingCost} as one from outside (what each finding does to a
 * tool is the one schema policy's: `tools/schema-policy.ts`).
 *
 * @module
 */

import { costlySchema } from './schema-cost.js';
import { exponentialRecursion } from './schema-recursion.js';
import { schemaGraph } from './schema-graph.js';
import { repeatedChecks } from './schema-repeats.js';
import { IN_PLACE_LIST, IN_PLACE_MAP, IN_PLACE_ONE, NESTED_LIST, NESTED_MAP, NESTED_ONE, dataKeywordOf, resolve, shown, subschemas, type Schema } from './schema-walk.js';

/**
 * Why a schema from outside (an AG-UI frontend tool's, an MCP tool's) cannot be checked against, or `undefined` when it can: a `$ref`
 * that is not a pointer into the schema itself (`#`, `#/…`: a URL, an anchor), or points into
 * a value (`#/default`, `#/examples/0`, `#/const`, `#/enum/0`: read as a schema by the
 * validator, but not by the warning of its unenforced patterns), an `$id` below
 * its root (it would move where `#` points), a `"$async": true` (its validator would answer a
 * Promise, not a verdict), or a `$ref` that comes back to itself without
 * going into a property or an item (`{ "$ref": "#" }`, two `$defs` naming each other): checking
 * a value against it never ends. Recursion through a property or an item (a tree of nodes)
 * ends with the value, and is kept. Then one too much work to compile (`costlySchema`): an
 * `anyOf`/`oneOf`/`allOf` of more than 64 branches, or past 2,000 subschemas with each `$def`
 * counted at every `$ref` that makes ajv copy it. Last, one whose recursion can apply twice
 * to the same part of a value (`items` and `contains` both recurring, say), or whose `$defs`
 * name the next twice where both apply, link after link (`checkingCost`), as checking would
 * take twice as long at every level of nesting, or at every link.
 *
 * A schema from outside has its depth and size checked before (`oversizedSchema`), so the
 * walks are bounded; a tool author's own schema is not, as ajv compiles it unbounded too.
 */
export function unusableRefs(root: Schema): string | undefined {
  const targets = new Set<string>();
  const outside = walk(root, '', (schema, path) => {
    if ('$id' in schema && path !== '' && typeof schema['$id'] === 'string') return `it has an $id below its root (at ${shown(path)}): refs here may only point into the schema itself`;
    // ajv would compile it into a validator that answers a Promise (see `compileSchema`).
    if (schema['$async']) return `it has "$async": true (at ${path === '' ? 'the root' : shown(path)}): asynchronous schemas are not supported here`;
    const ref = schema['$ref'];
    if (typeof ref !== 'string') return undefined;
    if (ref !== '#' && !ref.startsWith('#/')) return `its $ref ${JSON.stringify(shown(ref))} (at ${path === '' ? 'the root' : shown(path)}) is not "#" or a "#/…" pointer into the schema: no URL is fetched and no anchor followed`;
    // The validator would check values against what it names as a schema, which the warning
    // of patterns it cannot run, walking subschemas and not data, would not see.
    const data = dataKeywordOf(root, ref);
    if (data !== undefined) return `its $ref ${JSON.stringify(shown(ref))} (at ${path === '' ? 'the root' : shown(path)}) points into "${data}", which holds a value, not a schema: name a subschema ($defs, a property) instead`;
    targets.add(ref);
    return undefined;
  });
  if (outside !== undefined) return outside;
  // Both later checks need no in-place loop; the cost check bounds the subschemas the recursion check walks.
  return loopMessage(loopingRef(root, targets)) ?? costlySchema(root) ?? checkingCost(root);
}

/**
 * Why checking a value against `root` can take time exponential in the value's depth (its
 * recursion applies twice to one part: `exponentialRecursion`) or in its chain of `$defs` (a
 * `$def` naming the next twice where both apply, link after link: `repeatedChecks`), or
 * `undefined`. Needs no `$ref` looping in place (`refLoop` first). For a schema from outside
 * ({@link unusableRefs}) and a tool author's own (`defineTool`): ajv checks both alike. A ref
 * that is not `#` or a `#/…` pointer (TypeBox's by `$id`) is not followed here.
 *
 * @example
 * ```ts
 * checkingCost({ type: 'array', items: { $ref: '#' }, contains: { $ref: '#' } }); // 'its recursive subschemas at /items and /contains apply to the same part ...'
 * ```
 */
export function checkingCost(root: Schema): string | undefined {
  // One reading of the schema for both.
  const nodes = schemaGraph(root);
  return exponentialRecursion(root, nodes) ?? repeatedChecks(root, nodes);
}

/**
 * The lenient check, for a tool author's own schema: why it cannot be checked against, or
 * `undefined`. Only a `#` or `#/…` `$ref` that comes back to itself without going into a
 * property or an item is refused (ajv would overflow the stack at every check). What ajv
 * resolves, or refuses when compiling, itself is left to it: a ref by `$id` (TypeBox's
 * `Type.Cyclic` names its definitions so), an anchor, a URL (ajv fetches nothing: it fails to
 * compile). A schema with an `$id` below its root is not looked at (its `#` moves there), nor
 * is a loop through refs by `$id`: those are limits, not refusals.
 *
 * @example
 * ```ts
 * refLoop({ type: 'object', $ref: '#' }); // 'its $ref "#" comes back to itself ...'
 * ```
 */
export function refLoop(root: Schema): string | undefined {
  const targets = new Set<string>();
  const moved = walk(root, '', (schema, path) => {
    if (path !== '' && typeof schema['$id'] === 'string') return 'an $id below the root';
    const ref = schema['$ref'];
    if (typeof ref === 'string' && (ref === '#' || ref.startsWith('#/'))) targets.add(ref);
    return undefined;
  });
  return moved === undefined ? loopMessage(loopingRef(root, targets)) : undefined;
}

function loopMessage(looping: string | undefined): string | undefined {
  return looping === undefined ? undefined : `its $ref ${JSON.stringify(shown(looping))} comes back to itself without going into a property or an item: checking a value against it never ends`;
}

/**
 * A ref on a cycle of refs that go on in place (each ref's target reaches the next through
 * in-place keywords only), or `undefined`: a depth-first search, each ref's edges found once.
 */
function loopingRef(root: Schema, targets: ReadonlySet<string>): string | undefined {
  const done = new Set<string>();
  for (const start of targets) {
    if (done.has(start)) continue;
    const onPath = new Set<string>([start]);
    const stack: Array<{ readonly ref: string; readonly next: string[] }> = [{ ref: start, next: edges(root, start) }];
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const ref = top.next.pop();
      if (ref === undefined) {
        stack.pop();
        onPath.delete(top.ref);
        done.add(top.ref);
      } else if (onPath.has(ref)) {
        return ref;
      } else if (!done.has(ref)) {
        onPath.add(ref);
        stack.push({ ref, next: edges(root, ref) });
      }
    }
  }
  return undefined;
}

/** The refs a ref's target reaches in place; none for a target that is not there (ajv refuses it when compiling). */
function edges(root: Schema, ref: string): string[] {
  const target = resolve(root, ref);
  return target === undefined ? [] : ownInPlaceRefs(target);
}

/** The `$ref`s of a schema and of its in-place subschemas (not of its properties' or items'). */
function ownInPlaceRefs(schema: Schema): string[] {
  const refs: string[] = [];
  const stack = [schema];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (typeof at['$ref'] === 'string') refs.push(at['$ref']);
    stack.push(...subschemas(at, IN_PLACE_ONE, IN_PLACE_LIST, IN_PLACE_MAP).map(([child]) => child));
  }
  return refs;
}

/** Visits every subschema (in place or nested, by keyword), depth first; the first reason `visit` gives ends the walk. */
function walk(schema: Schema, path: string, visit: (schema: Schema, path: string) => string | undefined): string | undefined {
  const why = visit(schema, path);
  if (why !== undefined) return why;
  const one = [...IN_PLACE_ONE, ...NESTED_ONE];
  const children = subschemas(schema, one, [...IN_PLACE_LIST, ...NESTED_LIST], [...IN_PLACE_MAP, ...NESTED_MAP]);
  for (const [child, key] of children) {
    const found = walk(child, `${path}/${key}`, visit);
    if (found !== undefined) return found;
  }
  return undefined;
}
