/**
 * The cost of judging long bash lines (`PermissionPolicy.evaluate`): the milliseconds one
 * line takes, for the shapes that were once slow. sed's writes were read as a file for every
 * letter `w` in any argument (an 8 KB sed line took a minute and blocked serve's event loop),
 * and a line of hundreds of writes or a path hundreds of folders deep was resolved write by
 * write. Each row is one shape: the median over rounds of the ms per line, with and without a
 * write rule (only then are the writes resolved). The decisions themselves are asserted by
 * `test/permission/bash-write-rules-cost.test.ts`. Runs the shipped build,
 * `dist/permission/index.js` (`npm run bench` builds first).
 *
 * @module
 */
import type * as Permission from '../src/permission/index.js';
import { rounds } from './support/mode.js';
import type { ResultRow } from './support/result-row.js';
import { median, since } from './support/stats.js';

/** A variable, so that `tsc` does not resolve `dist/` itself (see `support/rxharness.ts`). */
const PERMISSION_ENTRY = new URL('../dist/permission/index.js', import.meta.url).href;

/** Milliseconds one line may take: the slow readings took 24 s or more. */
const TARGET_MS = 250;

/**
 * The lines, by name (each round's with another file name `x`: a line judged before may be
 * remembered), and the decision each gets under the write rule (checked, so the bench measures
 * the reading it means to).
 */
const LINES: readonly { name: string; line: (x: string) => string; underWriteRule: string }[] = [
  { name: 'sed script of 550 substitutions', line: (x) => `sed -e '${'s/window/wow/g;'.repeat(550)}' ${x}`, underWriteRule: 'allow' },
  { name: 'sed, 4000 "w" commands in a row', line: (x) => `sed '${'w '.repeat(4000)}' ${x}`, underWriteRule: 'allow' },
  { name: 'sed, 4000 "w" letters in a word', line: (x) => `sed '${'w?'.repeat(4000)}' ${x}`, underWriteRule: 'allow' },
  { name: '500 redirections (over the 64 writes read)', line: (x) => `echo ${x} ${Array.from({ length: 500 }, (_, i) => `> out/o${i}`).join(' ')}`, underWriteRule: 'deny' },
  { name: 'a path 1500 folders deep', line: (x) => `echo ${x} > /${'a/?'.repeat(1500)}`, underWriteRule: 'deny' },
];

/** Runs the benchmark and returns its table rows. */
export async function policyCostBenchmark(): Promise<ResultRow[]> {
  const { PermissionPolicy } = (await import(PERMISSION_ENTRY)) as typeof Permission;
  const policies = {
    'write rule': new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] }),
    'bash rule only': new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] }),
  };
  const rows: ResultRow[] = [];
  for (const { name, line, underWriteRule } of LINES) {
    for (const [rules, policy] of Object.entries(policies)) {
      const expected = rules === 'write rule' ? underWriteRule : 'allow';
      const samples: number[] = [];
      for (let round = -1; round < rounds(7, 3); round += 1) {
        const text = line(`x${round + 1}`);
        const start = performance.now();
        const { action } = policy.evaluate('bash', text);
        const ms = since(start);
        if (action !== expected) throw new Error(`policy-cost: "${name}" (${rules}) should be ${expected}, got ${action}`);
        if (round >= 0) samples.push(ms); // round -1 warms up
      }
      const ms = median(samples);
      rows.push({ benchmark: 'policy-cost', metric: `evaluate one bash line: ${name} (${rules})`, unit: 'ms', rxharness: ms, target: `< ${TARGET_MS} ms`, pass: ms < TARGET_MS, details: { samples } });
    }
  }
  return rows;
}
