/**
 * Scale-out on Redis: delegated tasks run by `HarnessWorker`s in processes of their own, on a
 * throwaway loopback `redis-server` (skipped, with a row saying so, when it is not installed).
 *
 * 1. Throughput: one engine (`distributeTasks: true`, `multitask` pool of 100) delegates 400
 *    tasks in one `multitask` call, whose model answers after 200 ms, to 1, 2 and 4 worker
 *    processes of concurrency 25 each. Reports tasks/s and the ratio to one worker's.
 * 2. Event delivery, worker → parent: from the moment a worker appends a child's event to
 *    its event log to the moment the parent's stream emits the `TaskWrap` carrying it (the
 *    worker stamps the wall-clock time into a thinking delta as it appends it: see
 *    `workers/scale-out-worker.ts`). p50/p99 at a light load (one worker, pool 4), and under
 *    the throughput runs' load (in `details`).
 * 3. Redis memory per finished run (`engine.start`, 10 tasks each): `used_memory` growth
 *    divided by the runs, once they ended, then once the retention (set to 10 s here,
 *    `retentionMs` and `runRetentionMs`) has passed; what is left, by kind of key, in `details`.
 *
 * The parent engine runs in the bench's process; the workers in `node --import tsx`
 * processes on the build (`dist/`). Everything started is stopped at the end, also on failure.
 *
 * @module
 */
import { cpus } from 'node:os';
import type { ChatRequest, ScriptedReply } from '../src/index.js';
import { rounds } from './support/mode.js';
import { findRedisServer, startRedis, type BenchRedis } from './support/redis-server.js';
import type { ResultRow } from './support/result-row.js';
import { rx } from './support/rxharness.js';
import { machineCpu, roleCpu } from './support/process-cpu.js';
import { median, ratios, spread } from './support/stats.js';
import { makeTempDirs, type TempDirs } from './support/temp-dirs.js';
import { SENT_AT, startWorkers, type WorkerFleet } from './support/worker-fleet.js';

const TASKS = 400;
const MODEL_DELAY_MS = 200;
const CONCURRENCY = 25;
const FLEETS = [1, 2, 4] as const;
/** Children of the `multitask` call running at once: enough for 4 × 25 workers' slots, the same for every fleet. */
const POOL = 100;
const ROUNDS = rounds(3, 1);
const LATENCY_TASKS = rounds(400, 100);
const LATENCY_POOL = 4;
const MEMORY_RUNS = rounds(40, 20);
const MEMORY_TASKS_PER_RUN = 10;
/** Retention of finished runs' logs, records and tasks during the memory phase: longer than its runs take. */
const RETENTION_MS = 10_000;
/** The memory phase's heartbeat interval: a job's heartbeat key outlives it by this much. */
const MEMORY_STALL_MS = 2000;

const MAIN = '[scale-out-main]';
const CHILD = '[scale-out-child]';

type Engine = InstanceType<typeof rx.HarnessEngine>;
type Backend = Awaited<ReturnType<typeof rx.redisBackend>>;

const wallNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The main agent delegates as many tasks as its prompt says (`delegate N`), in one `multitask`, then answers. */
function mainReply({ messages }: ChatRequest): ScriptedReply {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.includes(CHILD)) return { text: 'done' }; // children run on workers; never here
  if (messages.some((m) => m.role === 'tool')) return { text: 'done' };
  const prompt = String(messages.findLast((m) => m.role === 'user')?.content ?? '');
  const count = Number(/delegate (\d+)/.exec(prompt)?.[1] ?? 0);
  const tasks = Array.from({ length: count }, (_, i) => ({ index: i + 1, agent_name: 'child', prompt: 'go', description: `child ${i + 1}` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
}

/** An engine on `backend` delegating to workers, with a `multitask` pool of `pool`. */
async function parentEngine(backend: Backend, dirs: TempDirs, pool: number, runRetentionMs?: number): Promise<Engine> {
  const model = new rx.ScriptedModel((request) => {
    model.requests.length = 0; // a test double's log of requests: not the engine's memory
    return mainReply(request);
  });
  const builtins = rx.createBuiltinTools().map((t) => t.name);
  const engine = new rx.HarnessEngine({
    model,
    backend,
    distributeTasks: true,
    workspace: dirs.workspace,
    homeDir: dirs.home,
    instructions: `${MAIN} You are the main agent.`,
    disabledTools: [...builtins, 'generate'],
    multitaskMaxTasks: pool,
    multitaskMaxItems: TASKS,
    ...(runRetentionMs !== undefined ? { runRetentionMs } : {}),
  });
  engine.agents.add(rx.defineAgent({ name: 'child', description: 'A slow scripted child.', systemPrompt: `${CHILD} You are a child.` }));
  await engine.agents.list();
  return engine;
}

interface Batch {
  readonly ms: number;
  readonly latencies: number[];
  /** The parent process's CPU time per task, in ms. */
  readonly parentCpuMsPerTask: number;
  /** The share of the machine's CPU time (every process, other work included) that was busy. */
  readonly machineBusy: number;
  /** Connections Redis accepted during the batch, per task. */
  readonly connectionsPerTask: number;
  /** CPU time per task of the parent, the workers (together) and Redis, in ms. */
  readonly cpuMsPerTask: { parent: number; workers: number; redis: number };
}

/** One run delegating `tasks`, streamed to its end; every task must end normally. */
async function batch(engine: Engine, tasks: number, redis: BenchRedis, workerPids: readonly number[]): Promise<Batch> {
  const connections0 = await redis.infoField('stats', 'total_connections_received');
  const roles0 = roleCpu(workerPids, redis);
  const latencies: number[] = [];
  let ended = 0;
  const failures: string[] = [];
  const cpu0 = process.cpuUsage();
  const machine0 = machineCpu();
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    engine.stream(`delegate ${tasks}`).subscribe({
      next: (event) => {
        if (event.type !== 'TaskWrap') return;
        const inner = event.event;
        if (inner.type === 'ReasonDelta' && inner.text.startsWith(SENT_AT)) latencies.push(wallNow() - Number(inner.text.slice(SENT_AT.length)));
        else if (inner.type === 'RunEnd') {
          ended++;
          if (inner.abnormal) failures.push(inner.error ?? 'abnormal');
        }
      },
      error: reject,
      complete: resolve,
    });
  });
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const machine1 = machineCpu();
  const roles1 = roleCpu(workerPids, redis);
  const connections = (await redis.infoField('stats', 'total_connections_received')) - connections0;
  if (ended !== tasks || failures.length) throw new Error(`scale-out: ${ended} of ${tasks} tasks ended, ${failures.length} failed (${failures[0] ?? ''})`);
  if (latencies.length !== tasks) throw new Error(`scale-out: ${latencies.length} of ${tasks} stamped events arrived`);
  return {
    ms,
    latencies,
    parentCpuMsPerTask: (cpu.user + cpu.system) / 1000 / tasks,
    machineBusy: (machine1.busy - machine0.busy) / (machine1.total - machine0.total),
    connectionsPerTask: connections / tasks,
    cpuMsPerTask: { parent: (roles1.parent - roles0.parent) / tasks, workers: (roles1.workers - roles0.workers) / tasks, redis: (roles1.redis - roles0.redis) / tasks },
  };
}

interface FleetResult {
  readonly workers: number;
  readonly tasksPerSecond: number[];
  readonly loadedLatencies: number[];
  readonly parentCpuMsPerTask: number;
  readonly machineBusy: number;
  readonly connectionsPerTask: number;
  readonly cpuMsPerTask: { parent: number; workers: number; redis: number };
  /** Model requests each worker process answered (warm-up included). */
  readonly answeredPerWorker: (number | undefined)[];
}

async function measureFleet(fleet: WorkerFleet, engine: Engine, redis: BenchRedis): Promise<Omit<FleetResult, 'answeredPerWorker'>> {
  await batch(engine, POOL, redis, fleet.pids); // warm-up: connections, JIT, BullMQ's scripts
  const measured: Batch[] = [];
  for (let round = 0; round < ROUNDS; round++) measured.push(await batch(engine, TASKS, redis, fleet.pids));
  return {
    workers: fleet.size,
    tasksPerSecond: measured.map((b) => TASKS / (b.ms / 1000)),
    loadedLatencies: measured.flatMap((b) => b.latencies),
    parentCpuMsPerTask: median(measured.map((b) => b.parentCpuMsPerTask)),
    machineBusy: median(measured.map((b) => b.machineBusy)),
    connectionsPerTask: median(measured.map((b) => b.connectionsPerTask)),
    cpuMsPerTask: {
      parent: median(measured.map((b) => b.cpuMsPerTask.parent)),
      workers: median(measured.map((b) => b.cpuMsPerTask.workers)),
      redis: median(measured.map((b) => b.cpuMsPerTask.redis)),
    },
  };
}

interface MemoryResult {
  readonly bytesPerRunRetained: number;
  readonly bytesPerRunAfterRetention: number;
  readonly keysRetained: Awaited<ReturnType<BenchRedis['keysOf']>>;
  readonly keysAfterRetention: Awaited<ReturnType<BenchRedis['keysOf']>>;
  /** Records in the shared runs hash: once the runs ended, after the retention, and after the owning engine was asked for its runs (which evicts). */
  readonly runRecords: { readonly retained: number; readonly afterRetention: number; readonly afterEngineEvicts: number };
}

/** Per-run memory: runs started on a fresh server, measured when they ended and once the retention passed. */
async function measureMemory(redis: BenchRedis, dirs: TempDirs, workerConfig: Record<string, unknown>, prefix: string, stop: Stopper): Promise<MemoryResult> {
  const times = { retentionMs: RETENTION_MS, stallIntervalMs: MEMORY_STALL_MS };
  const fleet = stop.add(await startWorkers(1, { ...workerConfig, prefix, ...times }));
  const backend = stop.add(await rx.redisBackend({ url: redis.url, prefix, ...times }));
  const engine = stop.add(await parentEngine(backend, dirs, MEMORY_TASKS_PER_RUN, RETENTION_MS));
  const runsKey = `${prefix}:runs`;
  const runs = async (count: number): Promise<void> => {
    // Four runs at a time.
    for (let i = 0; i < count; i += 4) {
      await Promise.all(Array.from({ length: Math.min(4, count - i) }, () => engine.start(`delegate ${MEMORY_TASKS_PER_RUN}`).result));
    }
  };
  const expire = async (): Promise<void> => {
    await sleep(Math.max(RETENTION_MS, MEMORY_STALL_MS) + 1000);
    await redis.keysOf(prefix); // a scan expires what it meets past its TTL
    await sleep(200);
  };
  await runs(2); // warm-up: the queue's keys, connections; its own logs expire before the baseline
  await expire();
  const baseline = await redis.usedMemory();
  await runs(MEMORY_RUNS);
  await sleep(200); // fire-and-forget writes (run records, task records) land
  const keysRetained = await redis.keysOf(prefix);
  const retained = await redis.usedMemory();
  const recordsRetained = await redis.hashLength(runsKey);
  await expire();
  const keysAfterRetention = await redis.keysOf(prefix);
  const after = await redis.usedMemory();
  const recordsAfterRetention = await redis.hashLength(runsKey);
  engine.runs.list(); // evicts the runs past their retention, which removes their records
  await sleep(200);
  const recordsAfterEvicting = await redis.hashLength(runsKey);
  await stop.run(engine, backend, fleet);
  return {
    runRecords: { retained: recordsRetained, afterRetention: recordsAfterRetention, afterEngineEvicts: recordsAfterEvicting },
    bytesPerRunRetained: (retained - baseline) / MEMORY_RUNS,
    bytesPerRunAfterRetention: (after - baseline) / MEMORY_RUNS,
    keysRetained,
    keysAfterRetention,
  };
}

type Stoppable = Engine | Backend | WorkerFleet;

/** What was started, stopped in reverse order (engines, then their backends, then workers), at the latest in `finally`. */
class Stopper {
  readonly #open: Stoppable[] = [];

  add<T extends Stoppable>(thing: T): T {
    this.#open.push(thing);
    return thing;
  }

  /** Leaves `thing` to the caller to stop. */
  forget(thing: Stoppable): void {
    const at = this.#open.indexOf(thing);
    if (at >= 0) this.#open.splice(at, 1);
  }

  /** Stops `things` (in the order given), or everything still open. */
  async run(...things: Stoppable[]): Promise<void> {
    const which = things.length ? things : [...this.#open].reverse();
    for (const thing of which) {
      const at = this.#open.indexOf(thing);
      if (at < 0) continue;
      this.#open.splice(at, 1);
      if ('stop' in thing) await thing.stop();
      else await thing.close().catch(() => undefined);
    }
  }
}

function skipped(reason: string): ResultRow[] {
  return [{ benchmark: 'scale-out', metric: `skipped: ${reason}`, unit: 'requests', rxharness: 0, details: { skipped: true, reason } }];
}

/** Runs the benchmark and returns its table rows. */
export async function scaleOutBenchmark(): Promise<ResultRow[]> {
  const program = findRedisServer();
  if (!program) return skipped('redis-server is not installed (apt-get install redis-server)');
  const dirs = await makeTempDirs();
  const stop = new Stopper();
  let redis: BenchRedis | undefined;
  try {
    redis = await startRedis(program);
    const workerConfig = { url: redis.url, concurrency: CONCURRENCY, delayMs: MODEL_DELAY_MS, workspace: dirs.workspace, home: dirs.home };
    const prefix = 'bench-so';
    const backend = stop.add(await rx.redisBackend({ url: redis.url, prefix }));
    const engine = stop.add(await parentEngine(backend, dirs, POOL));
    const fleets: FleetResult[] = [];
    let light: number[] = [];
    for (const workers of FLEETS) {
      process.stderr.write(`bench: scale-out: ${workers} worker process(es)...\n`);
      const fleet = stop.add(await startWorkers(workers, { ...workerConfig, prefix }));
      const result = await measureFleet(fleet, engine, redis);
      if (workers === 1) {
        const lightEngine = stop.add(await parentEngine(backend, dirs, LATENCY_POOL));
        light = (await batch(lightEngine, LATENCY_TASKS, redis, fleet.pids)).latencies;
        await stop.run(lightEngine);
      }
      stop.forget(fleet);
      fleets.push({ ...result, answeredPerWorker: await fleet.stop() });
    }
    await stop.run(engine, backend);
    await redis.flush();
    process.stderr.write('bench: scale-out: memory per run...\n');
    const memory = await measureMemory(redis, dirs, workerConfig, 'bench-so-mem', stop);
    return rows(fleets, light, memory);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (/Cannot find (module|package) '(ioredis|bullmq)'|is not installed/.test(why)) return skipped(why);
    throw e;
  } finally {
    await stop.run();
    await redis?.stop();
    await dirs.remove();
  }
}

function rows(fleets: readonly FleetResult[], light: readonly number[], memory: MemoryResult): ResultRow[] {
  const one = fleets.find((f) => f.workers === 1)!;
  const cores = cpus().length;
  const fleetDetails = (f: FleetResult) => ({
    tasksPerSecondPerRound: f.tasksPerSecond,
    idealTasksPerSecond: (f.workers * CONCURRENCY * 1000) / MODEL_DELAY_MS,
    parentCpuMsPerTask: f.parentCpuMsPerTask,
    cpuMsPerTaskFromProc: { ...f.cpuMsPerTask, total: f.cpuMsPerTask.parent + f.cpuMsPerTask.workers + f.cpuMsPerTask.redis },
    // What the harness's own processes would allow on every core of the machine, nothing else running.
    cpuCeilingTasksPerSecond: (cores * 1000) / (f.cpuMsPerTask.parent + f.cpuMsPerTask.workers + f.cpuMsPerTask.redis),
    machineBusyShare: f.machineBusy,
    redisConnectionsPerTask: f.connectionsPerTask,
    answeredPerWorker: f.answeredPerWorker,
    latencyUnderLoadMs: spread(f.loadedLatencies),
    cores,
  });
  const throughput: ResultRow[] = fleets.map((f) => {
    const label = `throughput, ${TASKS} tasks x ${MODEL_DELAY_MS} ms model, ${f.workers} worker process${f.workers > 1 ? 'es' : ''} x ${CONCURRENCY}`;
    const tps = median(f.tasksPerSecond);
    if (f.workers === 1) return { benchmark: 'scale-out', metric: label, unit: 'tasks/s', rxharness: tps, details: fleetDetails(f) };
    const ratio = median(ratios(f.tasksPerSecond, one.tasksPerSecond));
    const wanted = 0.8 * f.workers;
    return {
      benchmark: 'scale-out',
      metric: label,
      unit: 'tasks/s',
      rxharness: tps,
      baseline: median(one.tasksPerSecond),
      ratio,
      target: `>= ${wanted.toFixed(2)}x (${cores} cores)`,
      pass: ratio >= wanted,
      details: fleetDetails(f),
    };
  });
  const lat = spread(light);
  const kib = (bytes: number): number => bytes / 1024;
  return [
    ...throughput,
    {
      benchmark: 'scale-out',
      metric: `event delivery worker -> parent TaskWrap, p50 (1 worker, pool ${LATENCY_POOL})`,
      unit: 'ms',
      rxharness: lat.p50,
      details: { light: lat, underLoad: Object.fromEntries(fleets.map((f) => [`${f.workers}-workers`, spread(f.loadedLatencies)])) },
    },
    {
      benchmark: 'scale-out',
      metric: `event delivery worker -> parent TaskWrap, p99 (1 worker, pool ${LATENCY_POOL})`,
      unit: 'ms',
      rxharness: lat.p99,
      target: '<= 10 ms',
      pass: lat.p99 <= 10,
      details: { light: lat },
    },
    {
      benchmark: 'scale-out',
      metric: `Redis memory per finished run (${MEMORY_TASKS_PER_RUN} tasks), retained`,
      unit: 'KiB',
      rxharness: kib(memory.bytesPerRunRetained),
      details: { runs: MEMORY_RUNS, keys: memory.keysRetained, runRecords: memory.runRecords },
    },
    {
      benchmark: 'scale-out',
      metric: `Redis memory per finished run, after retention (${RETENTION_MS / 1000} s; sessions kept 30 days)`,
      unit: 'KiB',
      rxharness: kib(memory.bytesPerRunAfterRetention),
      details: { runs: MEMORY_RUNS, keys: memory.keysAfterRetention, runRecords: memory.runRecords },
    },
  ];
}
