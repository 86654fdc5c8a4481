/**
 * Wrapping throughput: events per second a streaming consumer receives while a parent
 * forwards a child's deltas as `TaskWrap`s (the child plays a `ScriptedModel` reply of many
 * one-character deltas, without delays, so the harness is the only cost), against a bare
 * RxJS `Subject` relay that builds and wraps the same event objects.
 *
 * @module
 */
import { map, Subject } from 'rxjs';
import type { AgentEvent, TaskWrapEvent } from '../src/index.js';
import type { ResultRow } from './support/result-row.js';
import { scriptedEngine } from './support/scripted-delegation.js';
import { median, ratios, rotate, since } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

const DELTAS = 300_000;
const WARMUP_ROUNDS = 2;
const ROUNDS = 7;

/** The relay: a child Subject, mapped into TaskWraps, fed to a counting consumer. */
function relayEventsPerSecond(text: string): number {
  const child = new Subject<AgentEvent>();
  let received = 0;
  const wrap = (event: AgentEvent): TaskWrapEvent => ({
    type: 'TaskWrap', runId: 'run_child', agentName: 'child', parentRunId: 'run_main', taskId: 'task_1',
    taskIndex: 1, taskAgentName: 'child', taskDescription: 'child', multitask: false, event,
  });
  child.pipe(map(wrap)).subscribe(() => received++);
  const start = performance.now();
  for (let i = 0; i < text.length; i++) {
    child.next({ type: 'ReasonDelta', runId: 'run_child', agentName: 'child', step: 1, kind: 'text', text: text.slice(i, i + 1) });
  }
  child.complete();
  return received / (since(start) / 1000);
}

/** Runs the benchmark and returns its table row. */
export async function wrappingBenchmark(): Promise<ResultRow[]> {
  const dirs = await makeTempDirs();
  try {
    const text = 'x'.repeat(DELTAS);
    const { engine } = await scriptedEngine({ tasks: 1, child: { text, chunkSize: 1 } }, dirs);
    const harness = async (): Promise<number> => {
      let received = 0;
      let wrapped = 0;
      const start = performance.now();
      await new Promise<void>((resolve, reject) =>
        engine.stream('delegate').subscribe({
          next: (e) => {
            received++;
            if (e.type === 'TaskWrap') wrapped++;
          },
          error: reject,
          complete: resolve,
        }),
      );
      const seconds = since(start) / 1000;
      if (wrapped < DELTAS) throw new Error(`wrapping: expected ${DELTAS} wrapped deltas, got ${wrapped}`);
      return received / seconds;
    };
    const rates = { harness: [] as number[], relay: [] as number[] };
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const side of rotate(['harness', 'relay'] as const, round)) {
        const rate = side === 'harness' ? await harness() : relayEventsPerSecond(text);
        if (round >= WARMUP_ROUNDS) rates[side].push(rate);
      }
    }
    const perRun = ratios(rates.harness, rates.relay);
    return [
      {
        benchmark: 'wrapping',
        metric: 'TaskWrap forwarding vs Subject relay',
        unit: 'events/s',
        rxharness: median(rates.harness),
        baseline: median(rates.relay),
        ratio: median(perRun),
        details: { deltasPerRun: DELTAS, runs: ROUNDS, rxharness: rates.harness, relay: rates.relay, ratios: perRun },
      },
    ];
  } finally {
    await dirs.remove();
  }
}
