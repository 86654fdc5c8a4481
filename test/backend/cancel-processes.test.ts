import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { stopProcess, workerProcess } from './worker-processes.js';

const AGENTS = [testAgent('explorer')];
const RUNS = 200;
// A command line no other process has, to find the ones a cancel must have killed.
const SLEEP = 'sleep 31.41592';

/** Pids of the processes whose command line is `SLEEP` (read from /proc: no procps needed). */
function sleepers(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim() === SLEEP) found.push(Number(entry));
    } catch {
      // it exited while we looked
    }
  }
  return found;
}

describe.skipIf(!HAS_REDIS)('cancel points across processes', () => {
  const scale = useScaleKits();

  it(`${RUNS} runs cancelled at random points, children on two worker processes: nothing is left running`, { timeout: 180_000 }, async () => {
    const kit = await scale.kit(1000);
    kit.fixture.route({
      main: steps(multitaskReply([[1, 'explorer', 'talk', 'one'], [2, 'explorer', 'sleep', 'two'], [3, 'explorer', 'talk', 'three']])),
      // One child streams an answer; one runs a process on its worker that only a cancel ends.
      explorer: (turn) =>
        turn.prompt === 'sleep'
          ? turn.step === 1
            ? { toolCalls: [{ name: 'bash', arguments: { command: SLEEP } }] }
            : { text: 'slept' }
          : { text: 'found it', delayMs: Math.floor(Math.random() * 60), chunkSize: 1, chunkDelayMs: 2 },
    });
    const procs: ChildProcess[] = [];
    try {
      for (let i = 0; i < 2; i++) procs.push(await workerProcess(kit, scale.redis, { model: 'proc-model', stallMs: 1000, concurrency: 6 }));
      const engine = await kit.engine({ distributeTasks: true, approve: () => ({ decision: 'approve' }) }, AGENTS);
      let sawSleeper = false;
      for (let i = 0; i < RUNS; i++) {
        const run = engine.stream('go').subscribe({ error: () => undefined });
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 200)));
        sawSleeper ||= sleepers().length > 0;
        run.unsubscribe();
      }
      // The cancel points reached the processes: some child was cut while its bash ran.
      expect(sawSleeper).toBe(true);
      const { server } = kit.fixture;
      await waitFor(() => server.inFlight === 0 && sleepers().length === 0, 10_000);
      const probe = (await kit.backend()).parts.redis;
      const bull = `${kit.prefix}:bull:tasks`;
      await waitFor(async () => (await probe.llen(`${bull}:wait`)) + (await probe.llen(`${bull}:active`)) === 0, 10_000);
      // No worker still runs a task: every heartbeat lapses within the stall interval.
      await waitFor(async () => (await probe.keys(`${kit.prefix}:beat:*`)).length === 0);
      const keys = (await probe.keys(`${kit.prefix}:*`)).filter((key) => !key.startsWith(`${bull}:`) && key !== `${kit.prefix}:runs`);
      const forever = [];
      for (const key of keys) if ((await probe.pttl(key)) === -1) forever.push(key);
      expect(forever).toEqual([]);
      // The worker processes are well: they still run a task to the end.
      kit.fixture.route({ main: steps(multitaskReply([[1, 'explorer', 'talk', 'after']])), explorer: () => ({ text: 'still here' }) });
      expect((await engine.call('go')).text).toContain('still here');
    } finally {
      await Promise.all(procs.map(stopProcess));
    }
  });
});
