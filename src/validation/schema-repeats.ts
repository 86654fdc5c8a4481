/**
 * Whether checking a value against a schema from outside applies its subschemas to one part
 * of the value too many times over, recursion aside (`schema-recursion.ts`): ajv applies every
 * subschema that applies, so a `$def` whose `allOf` names the next `$def` twice (or its
 * `anyOf`, `oneOf`, or its `items` and `contains`), the next doing the same, doubles the work
 * at each link: 20 links check one value 2^20 times (58 ms), 30 links for a minute (unions
 * nested in unions, each naming shared `$defs`, multiply likewise). Compiling
 * stays cheap (each `$def` with refs is compiled once), so the compile cost (`schema-cost.ts`)
 * does not see it. Called after `exponentialRecursion`.
 *
 * @module
 */

import { overlap, type DataStep } from './recursion-steps.js';
import { appliedToValues, type SchemaNode } from './schema-graph.js';
import { shown, type Schema } from './schema-walk.js';

/**
 * Subschemas applied to one part of a value: some 3 ms of checking it (ajv applies one in 20
 * to 35 ns). A real schema applies tens to thousands there (a union of 64 variants, each with
 * its shared base, some 200; unions of 64 nested two deep, 4,096 and their bases); a chain
 * doubling at each link passes it after 15 links.
 */
const MAX_APPLIED = 100_000;
/** Counts added and compared while counting, summed over the subschemas: tens of ms at most. */
const MAX_WORK = 1_000_000;
const TOO_INTRICATE = `it is too intricate to count how often checking applies its subschemas: more than ${MAX_WORK.toLocaleString('en')} counts are added up; name fewer $defs from fewer places`;

/** Where subschemas apply one level down, with how many times over (each counted as it goes on below). */
type Parts = ReadonlyMap<string | DataStep, Weighted>;
type PartsMap = Map<string | DataStep, Weighted>;

/** Each key of an object (`propertyNames`): a part of the value no item or property subschema reaches. */
const KEYS = { kind: 'key' } as const;

interface Weighted {
  readonly step: DataStep | typeof KEYS;
  readonly weight: number;
}

/**
 * What one application of a subschema applies: at the same part of the value (`here`), one
 * level down (`parts`, and the most at any one part below: `below`), and the most at any one
 * part (`most`).
 */
interface Reach {
  readonly here: number;
  readonly parts: Parts;
  readonly below: number;
  readonly most: number;
}

// A subschema on the way back to itself (recursion, `exponentialRecursion`'s to bound) counted once.
const ONCE: Reach = { here: 1, parts: new Map(), below: 0, most: 1 };

/**
 * Why checking a value against `root` (its `$ref`s `#` pointers, none looping in place) can
 * apply more than {@link MAX_APPLIED} subschemas to one part of it, or `undefined`. Counted as
 * it can happen: two `anyOf` branches both apply, and so do `then` and `else` (whichever counts
 * more); two different properties, or an `items` and a `properties`, never meet, nor does
 * either meet a key (`propertyNames`), checked as a part of its own, with what applies to it
 * in place only (a string has no items or properties). A `$def` named from
 * sibling properties, each its own part of the value, is counted once for each.
 * Without recursion: refs may chain a thousand deep. `nodes` is `root`'s `schemaGraph`.
 */
export function repeatedChecks(root: Schema, nodes: ReadonlyMap<Schema, SchemaNode>): string | undefined {
  const done = new Map<Schema, Reach>();
  const open = new Set<Schema>();
  // A subschema only keys meet applies nothing a level down: a key is a string (`appliedToValues`).
  const applied = appliedToValues(root, nodes);
  const work = { left: MAX_WORK };
  const stack = [root];
  while (stack.length > 0) {
    const schema = stack.at(-1)!;
    if (done.has(schema)) {
      stack.pop();
      continue;
    }
    const node = nodes.get(schema)!;
    if (!open.has(schema)) {
      open.add(schema);
      const waiting = [...node.inPlace.flat(), ...node.descents.map((d) => d.target), ...node.keys].filter((s) => !done.has(s) && !open.has(s));
      // One at a time (no spread): an object may have thousands of properties.
      for (const s of waiting) stack.push(s);
      if (waiting.length > 0) continue;
    }
    stack.pop();
    open.delete(schema);
    const reach = reachOf(node, (s) => done.get(s) ?? ONCE, work);
    if (reach === undefined) return TOO_INTRICATE;
    if ((applied.has(schema) ? reach.most : reach.here) > MAX_APPLIED) return message(node.path);
    done.set(schema, reach);
  }
  return undefined;
}

/** What one application of `node` applies, from its own descents and its in-place subschemas' (`of`); `undefined` past the work budget. */
function reachOf(node: SchemaNode, of: (schema: Schema) => Reach, work: { left: number }): Reach | undefined {
  let here = 1;
  // Each with the reach it is the parts of, if any: a chain of `$ref`s passes one on unchanged.
  const added: Array<[Parts, Reach | undefined]> = [];
  const own: PartsMap = new Map();
  for (const d of node.descents) add(own, d.step, of(d.target).most);
  for (const key of node.keys) add(own, KEYS, of(key).here);
  added.push([own, undefined]);
  for (const entry of node.inPlace) {
    const reaches = entry.map(of);
    // One entry of several members is `then` and `else`: one or the other applies, so the larger of each.
    here += Math.max(...reaches.map((r) => r.here));
    added.push(reaches.length === 1 ? [reaches[0]!.parts, reaches[0]] : [larger(reaches.map((r) => r.parts)), undefined]);
  }
  const nonEmpty = added.filter(([parts]) => parts.size > 0);
  if (nonEmpty.length <= 1) {
    // Nothing to add up (a `$ref` alone, the most common): its target's parts, not copied.
    const [parts, from] = nonEmpty[0] ?? [ONCE.parts, ONCE];
    work.left -= 1;
    const below = from?.below ?? mostAtOnePart(parts, work);
    return work.left < 0 ? undefined : { here, parts, below, most: Math.max(here, below) };
  }
  const parts: PartsMap = new Map();
  for (const [p] of nonEmpty) for (const [key, { step, weight }] of p) parts.set(key, { step, weight: (parts.get(key)?.weight ?? 0) + weight });
  work.left -= nonEmpty.reduce((sum, [p]) => sum + p.size, 0);
  const below = mostAtOnePart(parts, work);
  return work.left < 0 ? undefined : { here, parts, below, most: Math.max(here, below) };
}

/** Key by key, the larger count of `all`. */
function larger(all: readonly Parts[]): Parts {
  const out: PartsMap = new Map();
  for (const parts of all) {
    for (const [key, { step, weight }] of parts) if ((out.get(key)?.weight ?? -1) < weight) out.set(key, { step, weight });
  }
  return out;
}

function add(parts: PartsMap, step: Weighted['step'], weight: number): void {
  const key = keyOf(step);
  const seen = parts.get(key);
  parts.set(key, { step, weight: (seen?.weight ?? 0) + weight });
}

/** Steps that name the same part share a key; the leftover keys of one object are keyed by their own step. */
function keyOf(step: Weighted['step']): string | DataStep {
  if (step.kind === 'key') return 'key';
  if (step.kind === 'item') return `item ${step.from} ${step.to}`;
  if (step.name !== undefined) return `name ${step.name}`;
  return step.pattern !== undefined ? `pattern ${step.pattern}` : step;
}

/** The most counted at one part: a key, items by the ranges that meet at an index, properties at a name (or at a key no name covers). */
function mostAtOnePart(parts: Parts, work: { left: number }): number {
  const ranges: Array<[number, number]> = [];
  const names: Array<[DataStep, number]> = [];
  const others: Array<[DataStep, number]> = [];
  // Every `propertyNames` is keyed alike (`keyOf`): one entry, its weights summed.
  let keys = 0;
  for (const { step, weight } of parts.values()) {
    if (step.kind === 'key') keys = weight;
    else if (step.kind === 'item') ranges.push([step.from, weight], [step.to, -weight]);
    else (step.name !== undefined ? names : others).push([step, weight]);
  }
  // Ends before starts at one index: a range's `to` is past its last item.
  ranges.sort(([a, wa], [b, wb]) => a - b || wa - wb);
  let most = keys;
  let running = 0;
  for (const [, weight] of ranges) most = Math.max(most, (running += weight));
  work.left -= names.length * others.length;
  if (work.left < 0) return most;
  most = Math.max(most, others.reduce((sum, [, w]) => sum + w, 0));
  for (const [step, weight] of names) most = Math.max(most, others.reduce((sum, [other, w]) => sum + (overlap(other, step) ? w : 0), weight));
  return most;
}

function message(path: string): string {
  return `checking one part of a value would apply its subschemas more than ${MAX_APPLIED.toLocaleString('en')} times (counted from ${path === '' ? 'the root' : shown(path)}): subschemas that apply together (allOf, anyOf or oneOf branches, items and contains) each name the same $defs, and those name theirs likewise, so the count multiplies at each level (a chain of $defs each naming the next twice doubles it at every link); name each $def once for each part of a value, or nest fewer unions`;
}
