/**
 * Not part of `npm run bench`: runs one side of the overhead benchmark many times against
 * the delegation server, for a CPU profile of just that side:
 *
 * ```sh
 * node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-overhead.ts stream 30
 * node --import tsx bench/support/profile-summary.ts /tmp/prof/<file>.cpuprofile
 * ```
 *
 * Sides: stream, call, limit. Prints the median wall and CPU time per run.
 *
 * @module
 */
import { count, lastValueFrom } from 'rxjs';
import { DELEGATION } from './scenarios/delegation.js';
import { benchClient } from './support/bench-client.js';
import { delegationEngine } from './support/delegation-engine.mjs';
import { limitRun } from './support/limit-client.js';
import { startServer } from './support/server-process.js';
import { median, since } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

const side = process.argv[2] ?? 'stream';
const runs = Number(process.argv[3] ?? 30);
const server = await startServer('delegation');
const dirs = await makeTempDirs();
try {
  const bodies: unknown[] = [];
  const recording: typeof fetch = (url, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return fetch(url, init);
  };
  await (await delegationEngine({ baseURL: server.baseURL, ...dirs, client: benchClient(server.baseURL, recording) })).call(DELEGATION.mainPrompt);
  const engine = await delegationEngine({ baseURL: server.baseURL, ...dirs, maxRetainedRuns: 1 });
  const once: Record<string, () => Promise<unknown>> = {
    stream: () => lastValueFrom(engine.stream(DELEGATION.mainPrompt).pipe(count())),
    call: () => engine.call(DELEGATION.mainPrompt),
    limit: () => limitRun(server.baseURL, bodies, DELEGATION.workers),
    start: () => lastValueFrom(engine.start(DELEGATION.mainPrompt).events$.pipe(count())),
  };
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await once[side]!();
    const used = process.cpuUsage(c);
    if (i < 3) continue;
    wall.push(since(t));
    cpu.push((used.user + used.system) / 1000);
  }
  process.stdout.write(`${side}: wall ${median(wall).toFixed(1)} ms, cpu ${median(cpu).toFixed(1)} ms (median of ${runs})\n`);
} finally {
  await server.close();
  await dirs.remove();
}
