/**
 * Task tree with many tool calls: the time `reduceTree` takes to fold a run whose one node
 * makes 20,000 tool calls (each started and ended), and the same per call against a run of
 * 5,000. Every start once copied the node's list of calls (quadratic: seconds for 20,000);
 * the lists are now shared between states, so the cost per call should not grow with the
 * calls (ratio near 1). The tree's arrays are read once at the end, as a view would. Runs
 * the shipped build, `dist/client/index.js` (`npm run bench` builds first).
 *
 * @module
 */
import type * as Client from '../src/client/index.js';
import type { AgentEvent, TaskTreeState } from '../src/client/index.js';
import { rounds } from './support/mode.js';
import type { ResultRow } from './support/result-row.js';
import { median, ratios, since } from './support/stats.js';

const CALLS = 20_000;
const SMALL = 5_000;
/** A variable, so that `tsc` does not resolve `dist/` itself (see `support/rxharness.ts`). */
const CLIENT_ENTRY = new URL('../dist/client/index.js', import.meta.url).href;

/** Milliseconds to fold a run of `calls` tool calls (started and ended) into one node. */
function foldMs({ createTreeState, reduceTree }: typeof Client, calls: number): number {
  const start = performance.now();
  let state: TaskTreeState = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
  for (let i = 0; i < calls; i += 1) {
    const call = { runId: 'main', agentName: 'main', step: i, callId: `call_${i}`, toolName: 'read' };
    state = reduceTree(state, { type: 'ToolCallStart', ...call, args: { path: `src/file_${i}.ts` } } satisfies AgentEvent, i);
    state = reduceTree(state, { type: 'ToolCallEnd', ...call, text: 'contents', durationMs: 1 } satisfies AgentEvent, i);
  }
  const ms = since(start);
  if (state.root?.tools.length !== calls) throw new Error(`tree-tools: expected ${calls} tool calls, got ${state.root?.tools.length}`);
  return ms;
}

/** Runs the benchmark and returns its table rows. */
export async function treeToolsBenchmark(): Promise<ResultRow[]> {
  const client = (await import(CLIENT_ENTRY)) as typeof Client;
  foldMs(client, SMALL); // warm-up
  const large: number[] = [];
  const small: number[] = [];
  for (let round = 0; round < rounds(5, 2); round += 1) {
    small.push(foldMs(client, SMALL));
    large.push(foldMs(client, CALLS));
  }
  const perCall = ratios(large.map((ms) => ms / CALLS), small.map((ms) => ms / SMALL));
  const ratio = median(perCall);
  return [
    { benchmark: 'tree-tools', metric: `reduceTree, ${CALLS.toLocaleString('en-US')} tool calls in one node`, unit: 'ms', rxharness: median(large), details: { large, small } },
    {
      benchmark: 'tree-tools', metric: `time per call, ${CALLS.toLocaleString('en-US')} vs ${SMALL.toLocaleString('en-US')} calls`, unit: 'x',
      rxharness: ratio, target: '<= 2.00x', pass: ratio <= 2, details: { perCall },
    },
  ];
}
