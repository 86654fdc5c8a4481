/**
 * Overhead: the same model traffic through `engine.stream()` (every event consumed),
 * `engine.call()` and a raw `openai` client loop. The raw loop replays the exact request
 * bodies rxharness sent (captured once), in the same order and concurrency: the parent's
 * request, the 4 children's at once, the parent's last one.
 *
 * @module
 */
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { count, lastValueFrom, tap } from 'rxjs';
import { DELEGATION } from './scenarios/delegation.js';
import { benchClient } from './support/bench-client.js';
import { delegationEngine } from './support/delegation-engine.mjs';
import type { ResultRow } from './support/result-row.js';
import { startServer } from './support/server-process.js';
import { median, ratios, rotate, since } from './support/stats.js';
import { makeTempDirs, type TempDirs } from './support/temp-dirs.js';

const WARMUP_ROUNDS = 2;
const ROUNDS = 30;
type Side = 'stream' | 'call' | 'raw';
type Body = ChatCompletionCreateParamsStreaming;
type Engine = Awaited<ReturnType<typeof delegationEngine>>;
const { mainPrompt, workers } = DELEGATION;

async function streamRun(engine: Engine): Promise<void> {
  let failed: string | undefined;
  const seen = engine.stream(mainPrompt).pipe(
    tap((e) => {
      if (e.type === 'RunEnd' && e.abnormal) failed = e.error;
    }),
    count(),
  );
  await lastValueFrom(seen);
  if (failed !== undefined) throw new Error(`overhead: the streamed run failed: ${failed}`);
}

async function callRun(engine: Engine): Promise<void> {
  const result = await engine.call(mainPrompt);
  if (result.abnormal) throw new Error(`overhead: the call failed: ${result.error}`);
}

/** Streams one completion to its end, keeping the text like any consumer would. */
async function consume(client: OpenAI, body: Body): Promise<string> {
  const text: string[] = [];
  for await (const chunk of await client.chat.completions.create(body)) {
    const delta = chunk.choices[0]?.delta?.content;
    if (delta) text.push(delta);
  }
  return text.join('');
}

async function rawRun(client: OpenAI, bodies: readonly Body[]): Promise<void> {
  const [first, ...rest] = bodies;
  const children = rest.slice(0, workers);
  await consume(client, first!);
  await Promise.all(children.map((body) => consume(client, body)));
  await consume(client, rest[workers]!);
}

/** One run of rxharness through a client that records each request body. */
async function captureBodies(baseURL: string, dirs: TempDirs): Promise<Body[]> {
  const bodies: Body[] = [];
  const recording: typeof fetch = (url, init) => {
    bodies.push(JSON.parse(String(init?.body)) as Body);
    return fetch(url, init);
  };
  await callRun(await delegationEngine({ baseURL, ...dirs, client: benchClient(baseURL, recording) }));
  if (bodies.length !== workers + 2) throw new Error(`overhead: expected ${workers + 2} requests, rxharness sent ${bodies.length}`);
  return bodies;
}

/** Runs the benchmark and returns its table rows. */
export async function overheadBenchmark(): Promise<ResultRow[]> {
  const server = await startServer('delegation');
  const dirs = await makeTempDirs();
  try {
    const engine = await delegationEngine({ baseURL: server.baseURL, ...dirs });
    const client = benchClient(server.baseURL);
    const bodies = await captureBodies(server.baseURL, dirs);
    const sides: Record<Side, () => Promise<void>> = {
      stream: () => streamRun(engine),
      call: () => callRun(engine),
      raw: () => rawRun(client, bodies),
    };
    const times: Record<Side, number[]> = { stream: [], call: [], raw: [] };
    const cpu: Record<Side, number[]> = { stream: [], call: [], raw: [] };
    const peaks: Record<Side, number> = { stream: 0, call: 0, raw: 0 };
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const side of rotate(Object.keys(sides) as Side[], round)) {
        const before = await server.resetPeak();
        const start = performance.now();
        const cpuStart = process.cpuUsage();
        await sides[side]();
        const ms = since(start);
        const cpuUsed = process.cpuUsage(cpuStart);
        const after = await server.stats();
        const sent = after.requests - before.requests;
        if (sent !== workers + 2) throw new Error(`overhead: ${side} sent ${sent} requests, expected ${workers + 2}`);
        if (round < WARMUP_ROUNDS) continue;
        times[side].push(ms);
        cpu[side].push((cpuUsed.user + cpuUsed.system) / 1000);
        peaks[side] = Math.max(peaks[side], after.peakInFlight);
      }
    }
    const row = (side: 'stream' | 'call', limit: number): ResultRow => {
      const perRun = ratios(times[side], times.raw);
      const ratio = median(perRun);
      return {
        benchmark: 'overhead',
        metric: `${side}() wall vs raw openai client`,
        unit: 'ms',
        rxharness: median(times[side]),
        baseline: median(times.raw),
        ratio,
        target: `<= ${limit.toFixed(2)}x`,
        pass: ratio <= limit,
        details: {
          runs: ROUNDS,
          rxharnessMs: times[side],
          rawMs: times.raw,
          ratios: perRun,
          // This process's CPU time per run (median): the client's cost without the server's share.
          clientCpuMs: { rxharness: median(cpu[side]), raw: median(cpu.raw) },
          peakConcurrentRequests: { rxharness: peaks[side], raw: peaks.raw },
        },
      };
    };
    return [row('stream', 1.1), row('call', 1.05)];
  } finally {
    await server.close();
    await dirs.remove();
  }
}
