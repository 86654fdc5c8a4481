/**
 * The CPU and the garbage each event costs on its way from a child's model stream to a
 * browser (issue 28, "CPU per delivered event"), in one process, without sockets. Not part
 * of the run:
 *
 * ```sh
 * npm run build && cp -r dist /tmp/my-dist
 * node --import tsx bench/support/event-path-cpu.ts [--dist /tmp/ev/before --dist /tmp/ev/after] [--deltas 20000] [--burst 1] [--reps 9] [--profile out]
 * ```
 *
 * (A copy of `dist/` outside the checkout needs `node_modules` and `package.json` beside it:
 * `mkdir /tmp/ev && ln -s $PWD/node_modules /tmp/ev/ && cp package.json /tmp/ev/`, then copy
 * the build to `/tmp/ev/<name>`.)
 *
 * A `HarnessEngine` on an in-process model (no network): the main agent calls `multitask`
 * with 2 children, each answering `--deltas` text deltas, `--burst` of them per macrotask
 * (`setImmediate`: as a network read brings them; 1, the default, is serve's case, where
 * deltas come tens of milliseconds apart, so each one crosses the path alone and gets its
 * own SSE write), then the main agent answers. The run is started with `engine.start()` and followed from its
 * first event by the real `GET /runs/:id/events` writer (`streamRunEvents`) into a sink that
 * takes every write (a socket that is never full). So each delta crosses: reason step -> run
 * output -> run-child's wrap -> the task call's ordered output -> the parent's run output ->
 * the registry -> the memory event log -> the reader -> JSON -> the SSE frame batch.
 *
 * Prints, for each `--dist` (a build; default `dist/`; several are measured in turn, rep by
 * rep in the same process, so a machine shared with others slows them alike), medians of
 * `--reps` runs: CPU (user + system) per delivered event, of the whole
 * run and of the same model streams alone (the model's share, which is not ours); then, from
 * one more run under V8's sampling heap profiler (counting the garbage too), the bytes
 * allocated per event and the top allocating functions (bytes are the samples times the
 * interval: V8 folds small allocations, so a sample's own size, hence an object count, is
 * not reliable). `--profile <prefix>` writes
 * a CPU profile of one more run of each build, `<prefix>-<n>.cpuprofile` (summarise it with
 * `profile-summary.ts`). Compare two builds by
 * their `--dist` copies: `dist/` is shared and rebuilt by others.
 *
 * @module
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Observable } from 'rxjs';
import type * as RxHarness from '../../src/index.js';
import type * as StreamRunEvents from '../../src/http/stream-run-events.js';
import { median } from './stats.js';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true, default: [new URL('../../dist', import.meta.url).pathname] },
    deltas: { type: 'string', default: '20000' },
    burst: { type: 'string', default: '1' },
    reps: { type: 'string', default: '9' },
    profile: { type: 'string' },
  },
});
const DELTAS = Number(args.deltas);
const REPS = Number(args.reps);
const BURST = Number(args.burst);

/** One build under test: its library and its `GET /runs/:id/events` writer. */
interface Build {
  readonly name: string;
  readonly rx: typeof RxHarness;
  readonly streamRunEvents: typeof StreamRunEvents.streamRunEvents;
}

async function loadBuild(path: string): Promise<Build> {
  const dist = pathToFileURL(resolve(path)).href;
  const rx = (await import(`${dist}/index.js`)) as typeof RxHarness;
  const { streamRunEvents } = (await import(`${dist}/http/stream-run-events.js`)) as typeof StreamRunEvents;
  return { name: path, rx, streamRunEvents };
}

const CHUNK = 4; // characters per delta: a token or so, as a model streams
const childReply = { text: 'abcd'.repeat(DELTAS), chunkSize: CHUNK };
const MAIN = '[event-path-main]';
const CHILD = '[event-path-child]';
const multitask = {
  toolCalls: [
    {
      name: 'multitask',
      args: { tasks: [1, 2].map((index) => ({ index, agent_name: 'child', prompt: 'go', description: `child ${index}` })) },
    },
  ],
};

/** A response that takes every write: the run's frames are counted, not sent. */
class SinkResponse extends EventEmitter {
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  frames = 0;
  writeHead(): this {
    this.headersSent = true;
    return this;
  }
  flushHeaders(): void {}
  write(text: string): boolean {
    for (let at = text.indexOf('id: '); at !== -1; at = text.indexOf('\nid: ', at + 1)) this.frames++;
    return true;
  }
  end(text = ''): void {
    this.write(text);
    this.writableEnded = true;
    this.writableFinished = true;
    this.emit('close');
  }
  /** The reader's drain bound (30 s) may fire in a long session: it ends the response as a socket would. */
  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      this.emit('close');
    }
    return this;
  }
}

/**
 * `script`'s replies, `BURST` chunks per macrotask, as a model server's stream arrives; stops
 * when unsubscribed. A reply's deltas are cut as they go out (a list of them made up front
 * would outlive a few scavenges and charge the collector's copying to the run), and its finish
 * is the `ScriptedModel`'s.
 */
function paced(rx: typeof RxHarness, script: RxHarness.ScriptedResponder): RxHarness.ChatModel {
  const scripted = new rx.ScriptedModel(script);
  return {
    id: 'paced',
    stream: (request) =>
      new Observable<RxHarness.ModelChunk>((out) => {
        let finish: RxHarness.ModelChunk | undefined;
        scripted.stream(request).subscribe((chunk) => chunk.type === 'finish' && (finish = chunk));
        const text = finish?.type === 'finish' ? finish.text : '';
        let at = 0;
        let pending: ReturnType<typeof setImmediate>;
        const burst = (): void => {
          for (let n = 0; n < BURST && at < text.length && !out.closed; n++, at += CHUNK) out.next({ type: 'text-delta', text: text.slice(at, at + CHUNK) });
          if (out.closed) return;
          if (at < text.length) pending = setImmediate(burst);
          else {
            out.next(finish!);
            out.complete();
          }
        };
        pending = setImmediate(burst);
        return () => clearImmediate(pending);
      }),
  };
}

type Engine = InstanceType<typeof RxHarness.HarnessEngine>;

async function makeEngine({ rx }: Build, home: string, workspace: string): Promise<Engine> {
  const model = paced(rx, ({ messages }) => {
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    if (system.includes(CHILD)) return childReply;
    return messages.some((m) => m.role === 'tool') ? { text: 'done' } : multitask;
  });
  const engine = new rx.HarnessEngine({
    model,
    workspace,
    homeDir: home,
    instructions: `${MAIN} You are the main agent.`,
    disabledTools: [...rx.createBuiltinTools().map((t) => t.name), 'generate'],
    multitaskMaxTasks: 2,
    maxRetainedRuns: 1, // the reps' logs must not pile up in the heap the collector walks
  });
  engine.agents.add(rx.defineAgent({ name: 'child', description: 'A scripted child.', systemPrompt: `${CHILD} You are a child.` }));
  await engine.agents.list(); // discovery (file I/O) done before anything is measured
  return engine;
}

/** One run, started and followed to its end; the events the reader got. */
async function oneRun({ streamRunEvents }: Build, engine: Engine): Promise<number> {
  const res = new SinkResponse();
  const ended = new Promise<void>((done) => res.once('close', done));
  const handle = engine.start('go');
  streamRunEvents((after) => engine.runs.attach(handle.runId, { after }), 0, res as unknown as ServerResponse, 0, () => engine.runs.get(handle.runId)?.state !== 'running');
  await handle.result;
  await ended;
  return res.frames;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU of the two children's streams alone, as the run's model makes them (the model's share). */
async function modelAloneMs({ rx }: Build): Promise<number> {
  const model = paced(rx, () => childReply);
  const request = { messages: [{ role: 'user' as const, content: 'go' }], tools: [] };
  const before = cpuMs();
  await Promise.all([1, 2].map(() => new Promise((done) => model.stream(request).subscribe({ complete: () => done(undefined) }))));
  return cpuMs() - before;
}

async function heapSampled(build: Build, engine: Engine): Promise<void> {
  const session = new Session();
  session.connect();
  const interval = 256;
  await session.post('HeapProfiler.startSampling', { samplingInterval: interval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  const events = await oneRun(build, engine);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: SamplingProfile };
  session.disconnect();
  const sites = new Map<number, string>();
  const walk = (node: SamplingNode): void => {
    const f = node.callFrame;
    sites.set(node.id, `${f.functionName || '(anon)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`);
    node.children.forEach(walk);
  };
  walk(profile.head);
  // Each sample stands for `interval` bytes allocated (Poisson sampling by bytes).
  const bytes = new Map<string, number>();
  for (const sample of profile.samples) {
    const site = sites.get(sample.nodeId)!;
    bytes.set(site, (bytes.get(site) ?? 0) + interval);
  }
  console.log(`allocated per event (sampling heap profiler, interval ${interval} B, ${events} events): ${((profile.samples.length * interval) / events).toFixed(0)} bytes`);
  for (const [site, b] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(b / events).toFixed(1).padStart(7)} B  ${site}`);
}

interface SamplingNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SamplingNode[];
}
interface SamplingProfile {
  head: SamplingNode;
  samples: { nodeId: number }[];
}

const builds = await Promise.all(args.dist!.map(loadBuild));
const root = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-event-path-')));
try {
  const engines = await Promise.all(builds.map((build, i) => makeEngine(build, join(root, `home-${i}`), root)));
  for (const [i, build] of builds.entries()) await oneRun(build, engines[i]!); // warm-up: JIT and the engine's first-run work
  const perEvent = builds.map((): number[] => []);
  const modelPerEvent = builds.map((): number[] => []);
  let events = 0;
  for (let rep = 0; rep < REPS; rep++) {
    for (const [i, build] of builds.entries()) {
      const before = cpuMs();
      events = await oneRun(build, engines[i]!);
      perEvent[i]!.push(((cpuMs() - before) * 1000) / events);
      modelPerEvent[i]!.push(((await modelAloneMs(build)) * 1000) / events);
    }
  }
  console.log(`${events} events per run, ${DELTAS} deltas per child, ${BURST} per macrotask, ${REPS} reps`);
  for (const [i, build] of builds.entries()) {
    const all = median(perEvent[i]!);
    const model = median(modelPerEvent[i]!);
    console.log(`\n${build.name}: CPU per event ${all.toFixed(2)} µs (reps ${perEvent[i]!.map((x) => x.toFixed(2)).join(', ')}); model alone ${model.toFixed(2)} µs; ours ${(all - model).toFixed(2)} µs`);
    await heapSampled(build, engines[i]!);
  }
  if (args.profile) {
    for (const [i, build] of builds.entries()) {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      await oneRun(build, engines[i]!);
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile(`${args.profile}-${i}.cpuprofile`, JSON.stringify(profile));
      console.log(`CPU profile of ${build.name}: ${args.profile}-${i}.cpuprofile`);
    }
  }
  for (const engine of engines) await engine.close();
} finally {
  await rm(root, { recursive: true, force: true });
}
