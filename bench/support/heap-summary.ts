/**
 * What the objects new in a heap snapshot since an earlier one of the same process hold, per
 * run: `node --import tsx bench/support/heap-summary.ts <idle> <peak> <runs> [top]` (files
 * from `heap-at-peak.ts`). Not part of the run. Prints, in bytes per run:
 *
 * - by kind: the new objects' own size by constructor (strings, closures, arrays by type);
 * - by retainer: each new object whose dominator is an old one (the root of what was added,
 *   such as one run's entry in a map) with its retained size (everything only it keeps),
 *   grouped by its constructor and its dominator's, so one line reads "what a run adds where".
 *
 * Node ids are stable within a process, so "new" is exact; a snapshot holds reachable objects
 * only (it collects first), so garbage is not counted.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** A parsed snapshot: per node its kind, name, id, self size and first edge. */
interface Graph {
  readonly count: number;
  readonly kind: (i: number) => string;
  readonly name: (i: number) => string;
  readonly id: Uint32Array;
  readonly self: Float64Array;
  readonly firstEdge: Uint32Array;
  /** Edge targets (node indexes) and whether the edge is weak. */
  readonly to: Uint32Array;
  readonly weak: Uint8Array;
  readonly edgeName: (e: number) => string;
  /** The node's name as stored (a string's text). */
  readonly rawName: (i: number) => string;
}

function parse(file: string): Graph {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { node_fields: nf, node_types: nt, edge_fields: ef, edge_types: et } = raw.snapshot.meta;
  const N = nf.length;
  const E = ef.length;
  const count = raw.nodes.length / N;
  const [fType, fName, fId, fSize, fEdges] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => nf.indexOf(f)) as [number, number, number, number, number];
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
  const id = new Uint32Array(count);
  const self = new Float64Array(count);
  const firstEdge = new Uint32Array(count + 1);
  let edge = 0;
  for (let i = 0; i < count; i++) {
    id[i] = raw.nodes[i * N + fId]!;
    self[i] = raw.nodes[i * N + fSize]!;
    firstEdge[i] = edge;
    edge += raw.nodes[i * N + fEdges]!;
  }
  firstEdge[count] = edge;
  const to = new Uint32Array(edge);
  const weak = new Uint8Array(edge);
  const edgeTypes = et[0];
  for (let e = 0; e < edge; e++) {
    to[e] = raw.edges[e * E + eTo]! / N;
    weak[e] = edgeTypes[raw.edges[e * E + eType]!] === 'weak' ? 1 : 0;
  }
  const types = nt[0];
  const kind = (i: number): string => types[raw.nodes[i * N + fType]!]!;
  const name = (i: number): string => {
    const k = kind(i);
    if (k === 'closure' && process.env['HEAP_CLOSURES']) return `closure ${raw.strings[raw.nodes[i * N + fName]!]!.slice(0, 60) || '(anonymous)'} ${scriptOf(i)}`;
  if (k === 'string' || k === 'concatenated string' || k === 'sliced string') return '(string)';
    if (k === 'number') return '(number)';
    if (k === 'code') return '(code)';
    return `${k === 'closure' ? 'closure ' : k === 'object' ? '' : `(${k}) `}${raw.strings[raw.nodes[i * N + fName]!]!.slice(0, 60)}`;
  };
  /** A closure's script and line, through its shared function info (best effort). */
  const scriptOf = (i: number): string => {
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e++) {
      if (raw.strings[raw.edges[e * E + eName]!] !== 'shared') continue;
      const sfi = to[e]!;
      for (let f = firstEdge[sfi]!; f < firstEdge[sfi + 1]!; f++) {
        if (raw.strings[raw.edges[f * E + eName]!] !== 'script_or_debug_info') continue;
        return raw.strings[raw.nodes[to[f]! * N + fName]!]!.replace(/^.*\/(node_modules|dist)\//, '$1/');
      }
    }
    return '';
  };
  const edgeName = (e: number): string => {
    const t = edgeTypes[raw.edges[e * E + eType]!]!;
    const n = raw.edges[e * E + eName]!;
    return t === 'element' || t === 'hidden' ? `[${n}]` : String(raw.strings[n]);
  };
  const rawName = (i: number): string => raw.strings[raw.nodes[i * N + fName]!]!;
  return { count, kind, name, id, self, firstEdge, to, weak, edgeName, rawName };
}

/** Immediate dominators (Cooper, Harvey, Kennedy), from node 0 (the snapshot's root), ignoring weak edges. */
function dominators(g: Graph): { idom: Int32Array; order: Uint32Array; reached: number } {
  const order = new Uint32Array(g.count); // reverse postorder
  const rank = new Int32Array(g.count).fill(-1);
  const visited = new Uint8Array(g.count);
  const stack = new Uint32Array(g.count);
  const cursor = new Uint32Array(g.count);
  let top = 0;
  let post = 0;
  stack[0] = 0;
  visited[0] = 1;
  cursor[0] = g.firstEdge[0]!;
  const postorder = new Uint32Array(g.count);
  while (top >= 0) {
    const n = stack[top]!;
    if (cursor[n]! < g.firstEdge[n + 1]!) {
      const e = cursor[n]!++;
      const m = g.to[e]!;
      if (g.weak[e] || visited[m]) continue;
      visited[m] = 1;
      cursor[m] = g.firstEdge[m]!;
      stack[++top] = m;
    } else {
      postorder[post++] = n;
      top--;
    }
  }
  for (let i = 0; i < post; i++) {
    order[i] = postorder[post - 1 - i]!;
    rank[order[i]!] = i;
  }
  // predecessors, CSR
  const predCount = new Uint32Array(g.count + 1);
  for (let n = 0; n < g.count; n++) {
    if (rank[n]! < 0) continue;
    for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) if (!g.weak[e]) predCount[g.to[e]! + 1]!++;
  }
  for (let i = 1; i <= g.count; i++) predCount[i]! += predCount[i - 1]!;
  const preds = new Uint32Array(predCount[g.count]!);
  const fill = predCount.slice(0, g.count);
  for (let n = 0; n < g.count; n++) {
    if (rank[n]! < 0) continue;
    for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) if (!g.weak[e]) preds[fill[g.to[e]!]!++] = n;
  }
  const idom = new Int32Array(g.count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rank[a]! > rank[b]!) a = idom[a]!;
      while (rank[b]! > rank[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 1; i < post; i++) {
      const n = order[i]!;
      let best = -1;
      for (let p = predCount[n]!; p < predCount[n + 1]!; p++) {
        const q = preds[p]!;
        if (idom[q]! < 0) continue;
        best = best < 0 ? q : intersect(q, best);
      }
      if (best >= 0 && idom[n] !== best) {
        idom[n] = best;
        changed = true;
      }
    }
  }
  return { idom, order, reached: post };
}

/**
 * The new objects by where they hang: a breadth-first tree from the roots (strong edges), each
 * new object charged to its topmost new ancestor, keyed by that ancestor's old parent, the
 * edge and the ancestor's constructor. A partition: every new object counted once.
 */
function byPath(g: Graph, old: Set<number>): Map<string, { bytes: number; count: number }> {
  const parent = new Int32Array(g.count).fill(-1);
  const via = new Int32Array(g.count).fill(-1);
  const queue = new Uint32Array(g.count);
  const seen = new Uint8Array(g.count);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const n = queue[head++]!;
    for (let e = g.firstEdge[n]!; e < g.firstEdge[n + 1]!; e++) {
      const m = g.to[e]!;
      if (g.weak[e] || seen[m]) continue;
      seen[m] = 1;
      parent[m] = n;
      via[m] = e;
      queue[tail++] = m;
    }
  }
  const top = new Int32Array(g.count).fill(-1);
  const result = new Map<string, { bytes: number; count: number }>();
  const samples = new Map<string, number>();
  for (let i = 0; i < tail; i++) {
    const n = queue[i]!;
    if (old.has(g.id[n]!)) continue;
    const p = parent[n]!;
    // the topmost new object that is a JS object or closure (not a map's table or a context)
    const inherited = p >= 0 && !old.has(g.id[p]!) ? top[p]! : -1;
    top[n] = inherited >= 0 && meaningful(g, inherited) ? inherited : meaningful(g, n) || inherited < 0 ? n : inherited;
    const root = top[n]!;
    let holder = parent[root]!;
    while (holder > 0 && !meaningful(g, holder)) holder = parent[holder]!;
    const key = `${holder >= 0 ? g.name(holder) : '?'} -> ${g.name(root)}`;
    const row = result.get(key) ?? { bytes: 0, count: 0 };
    row.bytes += g.self[n]!;
    if (root === n) row.count += 1;
    if (!result.has(key)) samples.set(key, root);
    result.set(key, row);
  }
  // every new object charged to one part of the server by the holders on its path from the roots
  const parts = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < tail; i++) {
    const n = queue[i]!;
    if (old.has(g.id[n]!)) continue;
    const names = new Set<string>();
    for (let m = n; m > 0; m = parent[m]!) names.add(g.name(m));
    const part = PARTS.find(([, markers]) => markers.some((marker) => names.has(marker)))?.[0] ?? 'other';
    const row = parts.get(part) ?? { bytes: 0, count: 0 };
    row.bytes += g.self[n]!;
    row.count += 1;
    parts.set(part, row);
  }
  process.stdout.write('\nby part (each new object once, by the holders on its path from the roots):\n');
  for (const [key, { bytes, count }] of [...parts].sort((a, b) => b[1].bytes - a[1].bytes)) {
    process.stdout.write(`${(bytes / runs).toFixed(0).padStart(9)} B/run ${(count / runs).toFixed(1).padStart(8)} objects/run  ${key}\n`);
  }
  if (process.env['HEAP_HOLDERS']) {
    // internal arrays, strings and contexts charged to the nearest named object holding them
    const held = new Map<string, { bytes: number; count: number }>();
    for (let i = 0; i < tail; i++) {
      const n = queue[i]!;
      if (old.has(g.id[n]!) || meaningful(g, n)) continue;
      let holder = parent[n]!;
      let hops = '';
      while (holder > 0 && !meaningful(g, holder)) {
        hops = `${g.edgeName(via[holder]!)}.${hops}`;
        holder = parent[holder]!;
      }
      const key = `${g.name(n)} in ${holder > 0 ? g.name(holder) : '?'}.${hops}${g.edgeName(via[n]!)}`.replace(/\[\d+\]/g, '[]');
      const row = held.get(key) ?? { bytes: 0, count: 0 };
      row.bytes += g.self[n]!;
      row.count += 1;
      held.set(key, row);
    }
    for (const [key, { bytes, count }] of [...held].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(process.env['HEAP_HOLDERS']))) {
      process.stdout.write(`${(bytes / runs).toFixed(0).padStart(9)} B/run ${(count / runs).toFixed(1).padStart(8)} /run  ${key}\n`);
    }
  }
  if (process.env['HEAP_PATHS']) {
    const strings: number[] = [];
    for (let n = 0; n < g.count; n++) if (!old.has(g.id[n]!) && g.name(n) === '(string)' && g.self[n]! > 2000) strings.push(n);
    for (const n of strings.slice(0, Number(process.env['HEAP_PATHS']))) process.stdout.write(`\n${g.self[n]} ${pathTo(g, parent, via, n)}\n`);
    const heaviest = [...result].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(process.env['HEAP_PATHS']));
    for (const [key] of heaviest) process.stdout.write(`\n${key}: ${pathTo(g, parent, via, samples.get(key)!)}\n`);
  }
  return result;
}

/** The parts of a server a new object is charged to, by a constructor on its path from the roots (first match wins). */
const PARTS: readonly (readonly [string, readonly string[]])[] = [
  ['event log (replay)', ['EventStore', 'MemoryEventLog']],
  ['sessions (transcripts kept)', ['MemorySessionStore']],
  ['task tracker (results kept)', ['TaskTracker']],
  // undici's fetch (a custom client's), then the node:http transport's (rxharness's own client, src/model/node-http-fetch.ts)
  ['model requests (fetch or node:http, streams, bodies)', ['Client', 'Pool', 'Request', 'Fetch', 'ReadableStream', 'InternalReadableByteStream', 'ReadableStreamDefaultReader', 'Response', '_HeadersList', 'Headers', 'FastTimer', 'ClientRequest', 'NodeHttpResponse', 'Agent']],
  ['HTTP server side (SSE responses, requests)', ['ServerResponse', 'IncomingMessage', 'HTTPParser', 'Server']],
  ['sockets', ['TCP', 'Socket', '(synthetic) Node / TCPSocketWrap']],
  ['live run tree (RxJS pipeline, agent loops, closures)', ['RunRegistry', 'OperatorSubscriber', 'SafeSubscriber', 'closure trustedEmit', 'Subject', 'ReplaySubject']],
];

/** A JS object or closure as a program names it: what a retainer line should show. */
function meaningful(g: Graph, n: number): boolean {
  const kind = g.kind(n);
  return (kind === 'object' || kind === 'closure') && !g.name(n).startsWith('system /') && g.name(n) !== 'Object' && g.name(n) !== 'Array';
}

/** The chain of holders of node `n` from the roots, by the breadth-first tree. */
function pathTo(g: Graph, parent: Int32Array, via: Int32Array, n: number): string {
  const steps: string[] = [];
  for (let m = n; m > 0 && steps.length < 40; m = parent[m]!) steps.push(`${g.name(m)}${via[m]! >= 0 ? ` <-${g.edgeName(via[m]!)}-` : ''}`);
  return steps.join(' ');
}

const [idleFile, peakFile, runsArg, topArg] = process.argv.slice(2);
if (!idleFile || !peakFile || !runsArg) throw new Error('usage: heap-summary.ts <idle.heapsnapshot> <peak.heapsnapshot> <runs> [top]');
const runs = Number(runsArg);
const top = Number(topArg ?? 30);
const old = new Set(parse(idleFile).id);
const g = parse(peakFile);
const { idom, order, reached } = dominators(g);
const retained = Float64Array.from(g.self);
for (let i = reached - 1; i > 0; i--) retained[idom[order[i]!]!]! += retained[order[i]!]!;

const byKind = new Map<string, { bytes: number; count: number }>();
const byRetainer = new Map<string, { bytes: number; count: number }>();
let total = 0;
const add = (map: typeof byKind, key: string, bytes: number): void => {
  const row = map.get(key) ?? { bytes: 0, count: 0 };
  row.bytes += bytes;
  row.count += 1;
  map.set(key, row);
};
for (let i = 0; i < reached; i++) {
  const n = order[i]!;
  if (old.has(g.id[n]!)) continue;
  total += g.self[n]!;
  add(byKind, g.name(n), g.self[n]!);
  const d = idom[n]!;
  if (old.has(g.id[d]!)) {
    // the edge from the dominator, when it is a direct one: says which field holds it
    let via = '';
    for (let e = g.firstEdge[d]!; e < g.firstEdge[d + 1]!; e++) if (g.to[e] === n) via = `.${g.edgeName(e)}`;
    add(byRetainer, `${g.name(d)}${via.startsWith('.[') ? '[]' : via} -> ${g.name(n)}`, retained[n]!);
  }
}
const print = (title: string, map: typeof byKind): void => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, { bytes, count }] of [...map].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) {
    process.stdout.write(`${(bytes / runs).toFixed(0).padStart(9)} B/run ${(count / runs).toFixed(1).padStart(8)} /run  ${key}\n`);
  }
};
process.stdout.write(`new objects since idle: ${(total / runs / 1024).toFixed(1)} KiB/run (${runs} runs)\n`);
print('own size of the new objects, by constructor:', byKind);
print('retained by each new root (dominated by an old object), by its constructor and its dominator:', byRetainer);
print('held under each new object found first from an old one (shortest path from the roots; each new object counted once):', byPath(g, old));
if (process.env['HEAP_STRINGS']) {
  const strings: [number, number][] = [];
  for (let n = 0; n < g.count; n++) if (!old.has(g.id[n]!) && g.name(n) === '(string)') strings.push([n, g.self[n]!]);
  strings.sort((a, b) => b[1] - a[1]);
  process.stdout.write('\nlargest new strings:\n');
  for (const [n, size] of strings.slice(0, Number(process.env['HEAP_STRINGS']))) process.stdout.write(`${size} ${g.kind(n)} ${JSON.stringify(g.rawName(n).slice(0, 100))}\n`);
}
