/**
 * Sums a `.cpuprofile`'s self time by function (and by package), heaviest first:
 * `node --import tsx bench/support/profile-summary.ts <file> [top]`. Not part of the run.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byFn = new Map<string, number>();
const byPkg = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const short = url.replace(/^file:\/\/.*?\/(node_modules|dist|bench|src)\//, '$1/');
  const key = `${functionName || '(anon)'} ${short}:${lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/dist/') ? 'rxharness dist' : url.startsWith('node:') ? 'node internals' : url === '' ? functionName : url.includes('/bench/') ? 'bench' : url || '(native)');
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  total += us;
}
// Inclusive: each sample counted once for every distinct function on its stack.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (id: number): string => {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  return `${functionName || '(anon)'} ${url.replace(/^file:\/\/.*?\/(node_modules|dist|bench|src)\//, '$1/')}:${lineNumber + 1}`;
};
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(at));
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + us);
}
const top = Number(topArg ?? 40);
const show = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms\n\nby package:\n${show(byPkg, 15)}\n\nby function:\n${show(byFn, top)}\n\ninclusive:\n${show(inclusive, top)}\n`);
