/**
 * CPU of what a step asks of its tool list before each model request: the specs
 * (`toolSpecsReader`, asked twice a step) and the request's token estimate. Not part of the
 * run; in-process CPU (`process.cpuUsage()`), median of 5 passes:
 *
 * ```sh
 * node --import tsx bench/support/tool-specs-cpu.ts [distDir]
 * ```
 *
 * `distDir` (default `dist`) is where the modules are loaded from, to compare two builds.
 *
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.argv[2] ?? 'dist';
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(dist, path)).href)) as T;
const { createBuiltinTools } = await load<typeof import('../../src/index.js')>('index.js');
const { toolSpecsReader } = await load<typeof import('../../src/agent/tool-specs.js')>('agent/tool-specs.js');
const { estimateRequestTokens } = await load<typeof import('../../src/model/estimate-tokens.js')>('model/estimate-tokens.js');

const tools = createBuiltinTools();
const read = toolSpecsReader(tools);
const messages = [{ role: 'system' as const, content: 'You are a careful agent. '.repeat(120) }, { role: 'user' as const, content: 'go' }];
const N = 100_000;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** µs of CPU per call of `f`, the median of 5 passes of `N` calls (after one warm-up pass). */
function perCall(f: () => unknown): number {
  const passes: number[] = [];
  for (let pass = 0; pass < 6; pass++) {
    const before = process.cpuUsage();
    for (let i = 0; i < N; i++) f();
    const used = process.cpuUsage(before);
    if (pass > 0) passes.push((used.user + used.system) / N);
  }
  return median(passes);
}

console.log(`${dist}: ${tools.length} built-in tools (${tools.reduce((n, t) => n + t.description.length, 0)} description chars)`);
console.log(`toolSpecs(): ${perCall(read).toFixed(2)} µs/call; request estimate: ${perCall(() => estimateRequestTokens({ messages, tools: read() })).toFixed(2)} µs/call`);
