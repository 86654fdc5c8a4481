/**
 * Summarises a sampling heap profile (`promotion-probe.mjs`'s, or any `.heapprofile`): the
 * bytes by allocating function, then by the nearest rxharness function up each stack (what
 * of ours made the allocation happen, though Node, RxJS or `openai` made the object). Not
 * part of the run.
 *
 * ```sh
 * node bench/support/promotion-summary.mjs <profile> [top] [runs]
 * ```
 */
import { readFileSync } from 'node:fs';

const [file, top = '30', runs = '1'] = process.argv.slice(2);
if (!file) throw new Error('usage: promotion-summary.mjs <profile> [top] [runs]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const bySite = new Map();
const byOurs = new Map();
let total = 0;
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
const ours = (url) => url.includes('/dist/') && !url.includes('/node_modules/');
// a stack as deep as the program's: walked with an explicit stack, not recursion
const pending = [{ node: profile.head, nearest: '(none)' }];
while (pending.length > 0) {
  const { node, nearest } = pending.pop();
  const frame = node.callFrame;
  const site = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^(file:\/\/)?.*?\/(dist|node_modules)\//, '$2/')}:${frame.lineNumber + 1}`;
  const near = ours(frame.url) ? site : nearest;
  if (node.selfSize > 0) {
    total += node.selfSize;
    add(bySite, site, node.selfSize);
    add(byOurs, near, node.selfSize);
  }
  for (const child of node.children) pending.push({ node: child, nearest: near });
}
const perRun = Number(runs);
const amount = (bytes) => `${(bytes / 1024 / perRun).toFixed(1).padStart(8)} KiB${perRun > 1 ? '/run' : ''}  ${((100 * bytes) / total).toFixed(1).padStart(5)}%`;
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(amount(bytes), key);
};
console.log(`sampled: ${amount(total)}`);
print('by allocating function:', bySite);
print('by the nearest rxharness function up the stack:', byOurs);
