/**
 * Time to the first event (issue 28.3): from the model server's first byte to the first event
 * it causes, for a run's own step (`engine.stream()`) and for a task's child (its first
 * event, wrapped in `TaskWrap`, as the run emits it). The model (`support/first-byte-model.ts`,
 * its own process) stamps each response's first chunk with the wall-clock time just before
 * it writes it, with the headers; the run's subscriber takes now minus that stamp. The
 * model is built from a `baseURL`, as `serve` and the CLI build it, so its requests go over
 * rxharness's own `node:http` transport. The baseline is a bare `fetch` reading the same
 * first chunk (no client library, no harness): what the transport costs any client. Runs
 * one at a time, so nothing queues.
 *
 * @module
 */
import { lastValueFrom, tap } from 'rxjs';
import type { AgentEvent } from '../src/index.js';
import { startLineProcess } from './support/line-process.js';
import { rounds } from './support/mode.js';
import type { ResultRow } from './support/result-row.js';
import { rx } from './support/rxharness.js';
import { median, percentile } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';
import { wallNow } from './support/wall-clock.js';

const RUNS = rounds(300, 60);
const WARMUP = 20;
const MARK = /⟨(\d+(?:\.\d+)?)⟩/;
const here = (file: string): string => new URL(file, import.meta.url).pathname;

/** Milliseconds since the stamp in `text`, or undefined when it has none. */
function sinceStamp(text: string): number | undefined {
  const mark = MARK.exec(text);
  return mark ? wallNow() - Number(mark[1]) : undefined;
}

/** One delegating run: the latencies of its own first delta and of its child's. */
async function oneRun(engine: InstanceType<typeof rx.HarnessEngine>): Promise<{ run: number; child: number }> {
  let run: number | undefined;
  let child: number | undefined;
  const seen = (event: AgentEvent): void => {
    if (run === undefined && event.type === 'ReasonDelta') run = sinceStamp(event.text);
    else if (child === undefined && event.type === 'TaskWrap' && event.event.type === 'ReasonDelta') child = sinceStamp(event.event.text);
  };
  await lastValueFrom(engine.stream('Have part 1 reported on.').pipe(tap(seen)));
  if (run === undefined || child === undefined) throw new Error('first-event: a run ended without its stamped deltas (the model answered something else)');
  return { run, child };
}

/** A bare `fetch` of one completion: the latency of its first `data:` chunk; reads the rest. */
async function bareFirstChunk(url: string, body: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench' }, body });
  if (!response.body) throw new Error(`first-event: the model answered HTTP ${response.status} with no body`);
  const decoder = new TextDecoder();
  let latency: number | undefined;
  let buffer = '';
  for await (const bytes of response.body) {
    if (latency !== undefined) continue;
    buffer += decoder.decode(bytes, { stream: true });
    const end = buffer.indexOf('\n');
    if (end < 0 || !buffer.startsWith('data: ')) continue;
    const chunk = JSON.parse(buffer.slice(6, end)) as { choices: { delta: { content?: string } }[] };
    latency = sinceStamp(chunk.choices[0]?.delta.content ?? '');
  }
  if (latency === undefined) throw new Error('first-event: the bare response had no stamped chunk');
  return latency;
}

function rows(runs: number[], children: number[], bare: number[]): ResultRow[] {
  const p = (values: number[], q: number): number => percentile(values, q);
  // Alternated runs, paired: what the harness adds to the transport's own first-byte latency.
  const over = (values: number[]): number[] => values.map((value, i) => value - bare[i]!);
  const row = (metric: string, values: number[]): ResultRow[] => [
    { benchmark: 'first-event', metric: `${metric}, median`, unit: 'ms', rxharness: median(values), baseline: median(bare), ratio: median(values) / median(bare), target: '<= 1 ms', pass: median(values) <= 1, details: { samples: values.length, values, bare } },
    { benchmark: 'first-event', metric: `${metric}, p99`, unit: 'ms', rxharness: p(values, 99), baseline: p(bare, 99), ratio: p(values, 99) / p(bare, 99), target: '<= 1 ms', pass: p(values, 99) <= 1, details: { p90: p(values, 90), max: p(values, 100), bareMax: p(bare, 100) } },
    { benchmark: 'first-event', metric: `${metric}, over the bare fetch's (paired), median`, unit: 'ms', rxharness: median(over(values)), details: { p90: p(over(values), 90), p99: p(over(values), 99) } },
  ];
  return [...row("model's first byte -> a run's first event (stream())", runs), ...row("model's first byte -> a task's first child event (TaskWrap)", children)];
}

/** Runs the benchmark and returns its table rows. */
export async function firstEventBenchmark(): Promise<ResultRow[]> {
  const model = await startLineProcess(['--import', 'tsx', here('./support/first-byte-model.ts')], 'the first-byte model');
  const dirs = await makeTempDirs();
  try {
    const { baseURL } = JSON.parse(model.firstLine) as { baseURL: string };
    const builtins = rx.createBuiltinTools().map((t) => t.name);
    const engine = new rx.HarnessEngine({
      // Built from a baseURL, as serve and the CLI build it: rxharness's node:http transport, not a client's fetch.
      model: new rx.OpenAIChatModel({ model: 'first-byte', baseURL, apiKey: 'bench', maxRetries: 0 }),
      workspace: dirs.workspace,
      homeDir: dirs.home,
      instructions: 'You are the main agent. Delegate, then sum up.',
      disabledTools: [...builtins, 'generate', 'multitask'],
    });
    engine.agents.add(rx.defineAgent({ name: 'worker', description: 'Reports on one part.', systemPrompt: 'You are a worker.' }));
    await engine.agents.list();
    const bareBody = JSON.stringify({ model: 'first-byte', stream: true, messages: [{ role: 'user', content: 'Report on part 1.' }] });
    const runs: number[] = [];
    const children: number[] = [];
    const bare: number[] = [];
    try {
      for (let i = 0; i < WARMUP + RUNS; i++) {
        // alternated, so a drift of the machine's speed reaches both sides alike
        const one = await oneRun(engine);
        const first = await bareFirstChunk(`${baseURL}/chat/completions`, bareBody);
        if (i < WARMUP) continue;
        runs.push(one.run);
        children.push(one.child);
        bare.push(first);
      }
    } finally {
      await engine.close();
    }
    return rows(runs, children, bare);
  } finally {
    await model.stop();
    await dirs.remove();
  }
}
