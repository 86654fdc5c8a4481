/**
 * Task tree with many tool calls: the time `reduceTree` takes to fold a run whose one node
 * makes 20,000 tool calls (each started and ended), and the same per call against a run of
 * 5,000. Every start once copied the node's list of calls (quadratic: seconds for 20,000);
 * the lists are now shared between states, so the cost per call should not grow with the
 * calls (ratio near 1). The tree's arrays are read once at the end, as a view would.
 *
 * A reader row too: what a page's frame asks of the tree after each item (the node's
 * `toolCallCount` and `waitingApprovals`), against the same at 5,000 calls. Reading the
 * count as `tools.length` made the array of every call per frame; the counts the reducer
 * keeps make it flat (ratio near 1). Runs the shipped build, `dist/client/index.js`
 * (`npm run bench` builds first).
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

/** Frames a reader row measures: each an item folded, then the page's questions asked. */
const FRAMES = 2_000;

/**
 * Microseconds per frame spent reading, over frames after `folded`: each folds a tool call's
 * start (not timed), then reads the node's count and the approvals waiting (timed). Returns
 * the last state too, for the next round to go on from (an older state reduced again would
 * rebuild what its line shares, which is the reducer's cost, not a reader's).
 */
function frameReads({ reduceTree, waitingApprovals }: typeof Client, folded: TaskTreeState): { us: number; state: TaskTreeState } {
  let state = folded;
  let seen = 0;
  let ms = 0;
  for (let f = 0; f < FRAMES; f += 1) {
    state = reduceTree(state, { type: 'ToolCallStart', runId: 'main', agentName: 'main', step: f, callId: `frame_${f}`, toolName: 'read', args: { path: 'a.ts' } }, f);
    const start = performance.now();
    seen += state.root!.toolCallCount + waitingApprovals(state).length;
    ms += since(start);
  }
  if (waitingApprovals(state).length !== 3 || seen === 0) throw new Error('tree-tools: the frames should see three approvals waiting');
  return { us: (ms * 1000) / FRAMES, state };
}

/** `state` with three of its calls (the first ones) asking for approval: what a frame's `waitingApprovals` finds. */
function asking({ reduceTree }: typeof Client, state: TaskTreeState): TaskTreeState {
  return [0, 1, 2].reduce(
    (next, i) => reduceTree(next, { type: 'HITLPending', runId: 'main', agentName: 'main', approvalId: `a${i}`, callId: `call_${i}`, toolName: 'read', args: {}, reason: 'bench' }, i),
    state,
  );
}

/** Milliseconds to fold a run of `calls` tool calls (started and ended) into one node. */
function foldMs(client: typeof Client, calls: number): number {
  return fold(client, calls).ms;
}

/** The state of a run of `calls` tool calls (started and ended) in one node, and the milliseconds its fold took. */
function fold({ createTreeState, reduceTree }: typeof Client, calls: number): { state: TaskTreeState; ms: number } {
  const start = performance.now();
  let state: TaskTreeState = reduceTree(createTreeState(), { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' }, 0);
  for (let i = 0; i < calls; i += 1) {
    const call = { runId: 'main', agentName: 'main', step: i, callId: `call_${i}`, toolName: 'read' };
    state = reduceTree(state, { type: 'ToolCallStart', ...call, args: { path: `src/file_${i}.ts` } } satisfies AgentEvent, i);
    state = reduceTree(state, { type: 'ToolCallEnd', ...call, text: 'contents', durationMs: 1 } satisfies AgentEvent, i);
  }
  const ms = since(start);
  if (state.root?.tools.length !== calls) throw new Error(`tree-tools: expected ${calls} tool calls, got ${state.root?.tools.length}`);
  return { state, ms };
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
  // the reads of a frame, with three approvals waiting, each size going on from its own last state
  const states = { small: asking(client, fold(client, SMALL).state), large: asking(client, fold(client, CALLS).state) };
  const framesLarge: number[] = [];
  const framesSmall: number[] = [];
  for (let round = -1; round < rounds(5, 2); round += 1) {
    const small = frameReads(client, states.small);
    const large = frameReads(client, states.large);
    states.small = small.state;
    states.large = large.state;
    if (round === -1) continue; // warm-up
    framesSmall.push(small.us);
    framesLarge.push(large.us);
  }
  const frameRatio = median(ratios(framesLarge, framesSmall));
  return [
    { benchmark: 'tree-tools', metric: `reduceTree, ${CALLS.toLocaleString('en-US')} tool calls in one node`, unit: 'ms', rxharness: median(large), details: { large, small } },
    {
      benchmark: 'tree-tools', metric: `time per call, ${CALLS.toLocaleString('en-US')} vs ${SMALL.toLocaleString('en-US')} calls`, unit: 'x',
      rxharness: ratio, target: '<= 2.00x', pass: ratio <= 2, details: { perCall },
    },
    {
      benchmark: 'tree-tools', metric: `a frame's reads (toolCallCount, waitingApprovals) after an item, ${CALLS.toLocaleString('en-US')} vs ${SMALL.toLocaleString('en-US')} calls`,
      unit: 'x', rxharness: frameRatio, target: '<= 2.00x', pass: frameRatio <= 2, details: { readUsPerFrameLarge: framesLarge, readUsPerFrameSmall: framesSmall },
    },
  ];
}
