/**
 * The browsers of the serve-load benchmark, in their own process: starts `runs` runs over
 * HTTP (`POST /api/runs`, all at once) and follows each over server-sent events
 * (`GET /api/runs/:id/events`), as the page does.
 *
 * ```sh
 * node --import tsx bench/support/load-clients.ts '{"url":"http://127.0.0.1:4173","token":"...","runs":1000}'
 * ```
 *
 * Every delta the paced model sent carries its send time (`⟨ms⟩`); a client reading an
 * event with one records now minus that time: the delivery latency from the model's chunk to
 * the client's event, across three processes on one clock. Prints one JSON line
 * {@link LoadReport} at the end. With `RXHARNESS_LOAD_TIMES` set, it also writes each
 * latency with when it was read (`[atMs, latencyMs]` rows, `atMs` on the wall clock) to the
 * file `<RXHARNESS_LOAD_TIMES>-<runs>-<pid>`: when in the load the tail comes
 * (docs/performance.md §11, "Stop 36").
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getRetryingReset } from './get-retrying-reset.js';
import { wallNow } from './wall-clock.js';

interface Config {
  readonly url: string;
  readonly token: string;
  readonly runs: number;
}

/** How far a process's event loop fell behind, in ms (`monitorEventLoopDelay`, 10 ms resolution). */
export interface LoopDelay {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
  readonly samples: number;
}

/** What the clients saw. */
export interface LoadReport {
  readonly started: number;
  readonly refused: number;
  readonly failed: number;
  readonly completed: number;
  readonly events: number;
  /** Why runs failed: the stream's last message (`event: error` and its data), or how the connection ended. */
  readonly failures: Record<string, number>;
  /** Latencies in ms of every delta event. */
  readonly latencies: number[];
  readonly wallMs: number;
  /** How far the clients' own loop fell behind: a latency the server cannot help. */
  readonly clientLoopDelay: LoopDelay;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const headers = { authorization: `Bearer ${config.token}` };
const latencies: number[] = [];
/** `[atMs, latencyMs]` per latency, only when `RXHARNESS_LOAD_TIMES` asks for them. */
const timesFile = process.env['RXHARNESS_LOAD_TIMES'];
const times: [number, number][] = [];
const MARK = /⟨(\d+(?:\.\d+)?)⟩/;
let events = 0;
const failures: Record<string, number> = {};
const failedWith = (why: string): false => {
  failures[why] = (failures[why] ?? 0) + 1;
  return false;
};

function start(): Promise<{ status: number; runId?: string; body?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${config.url}/api/runs`, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.statusCode === 201 ? { runId: (JSON.parse(body) as { runId: string }).runId } : { body: body.slice(0, 120) }) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ prompt: 'Split this in two parts and report.' }));
  });
}

/** Whether a delta (the run's own, or a child's inside its TaskWrap) is in the message. */
function deltaText(data: string): string | undefined {
  const { event } = JSON.parse(data) as { event: { type: string; text?: string; event?: { type: string; text?: string } } };
  const inner = event.type === 'TaskWrap' ? event.event : event;
  return inner?.type === 'ReasonDelta' ? inner.text : undefined;
}

async function follow(runId: string): Promise<boolean> {
  // a GET on a pooled connection the server closed as it went out is sent again, as a browser does
  const res = await getRetryingReset(`${config.url}/api/runs/${runId}/events`, { agent, headers }).catch((e: NodeJS.ErrnoException) => e);
  if (res instanceof Error) return failedWith(`request error: ${res.message}`);
  return new Promise((resolve) => {
    let buffer = '';
    let ended = false;
    let ending = res.statusCode === 200 ? 'the stream closed without an end or error message' : `GET events answered ${res.statusCode ?? '?'}`;
    res.setEncoding('utf8');
    res.on('data', (piece: string) => {
      const now = wallNow();
      buffer += piece;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith('event: end')) ended = true;
        else if (block.startsWith('event:')) ending = block.slice(0, 300);
        const at = block.indexOf('data: ');
        if (at < 0 || block.startsWith('event:')) continue;
        events += 1;
        const mark = MARK.exec(deltaText(block.slice(at + 6)) ?? '');
        if (!mark) continue;
        const latency = now - Number(mark[1]);
        latencies.push(latency);
        if (timesFile) times.push([Math.round(now), latency]);
      }
    });
    res.on('end', () => resolve(ended || failedWith(ending))).on('error', (e) => resolve(failedWith(`response error: ${e.message}`)));
  });
}

const RESOLUTION_MS = 10;
const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
loop.enable();
// the histogram holds the intervals between its ticks: the delay is what exceeds the resolution
const delayMs = (ns: number): number => Math.max(0, ns / 1e6 - RESOLUTION_MS);
const t0 = performance.now();
let refused = 0;
let failed = 0;
let completed = 0;
let started = 0;
await Promise.all(
  Array.from({ length: config.runs }, async () => {
    const run = await start().catch((e: Error) => ({ status: 0, body: e.message }) as { status: number; runId?: string; body?: string });
    if (run.status === 429) return void (refused += 1);
    if (!('runId' in run) || !run.runId) return void (failed += 1, failedWith(`POST /api/runs answered ${run.status}${run.body ? `: ${run.body}` : ''}`));
    started += 1;
    if (await follow(run.runId)) completed += 1;
    else failed += 1;
  }),
);
agent.destroy();
loop.disable();
const clientLoopDelay: LoopDelay = { p50: delayMs(loop.percentile(50)), p90: delayMs(loop.percentile(90)), p99: delayMs(loop.percentile(99)), max: delayMs(loop.max), mean: delayMs(loop.mean), samples: loop.count };
const report: LoadReport = { started, refused, failed, completed, events, failures, latencies, wallMs: performance.now() - t0, clientLoopDelay };
if (timesFile) writeFileSync(`${timesFile}-${config.runs}-${process.pid}`, JSON.stringify(times));
process.stdout.write(`${JSON.stringify(report)}\n`);
