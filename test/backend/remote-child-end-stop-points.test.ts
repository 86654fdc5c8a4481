/**
 * A parent run whose `task` child runs on a worker, let go or cancelled at every point from
 * the child's RunEnd arriving to the parent's next model step: the child had answered, so its
 * log on Redis must end with its own RunEnd and `complete` (no cancel sent to its finished job,
 * no "cancelled" appended after it), the parent must end once or simply stop, and nothing of
 * the runs may stay open once the deployment is closed.
 */
import { map, type Observable, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];
const isChildEnd = (e: AgentEvent): boolean => e.type === 'TaskWrap' && e.event.type === 'RunEnd';
/** The parent's next model step has begun: its request is made at ReasonStart. */
const isNextStep = (e: AgentEvent): boolean => e.type === 'ReasonStart';

/** A kit with a worker, an engine that runs its tasks there, and readers of the children's logs. */
async function deployment(k: ScaleKit) {
  k.fixture.route({ main: steps(taskReply('explorer', 'find it', 'find')), explorer: () => ({ text: 'found it' }) });
  const { redis, keys } = (await k.backend()).parts;
  const engine = await k.engine({ distributeTasks: true }, AGENTS);
  await k.worker();
  /** The logs of jobs run on the worker (a run's own log is `:log:run_...`). */
  const childLogs = async (): Promise<string[]> => (await redis.keys(keys.log('*'))).filter((key) => !key.includes(':log:run_')).sort();
  /** Expects the child's log to end with its RunEnd, then `complete`, and its job to have been sent no cancel. */
  const endsComplete = async (key: string, where: string): Promise<void> => {
    const entries = async () => (await redis.xrange(key, '-', '+')).map(([, fields]) => fields);
    await waitFor(async () => (await entries()).some((f) => f[0] === 'end'));
    const all = await entries();
    expect(all.at(-1), where).toEqual(['end', JSON.stringify({ kind: 'complete' })]);
    expect(all.filter((f) => f[0] === 'end'), where).toHaveLength(1);
    expect((JSON.parse(all.at(-2)![3]!) as AgentEvent).type, where).toBe('RunEnd');
    expect(await redis.exists(keys.cancelled(key.slice(keys.log('').length))), where).toBe(0);
  };
  return { engine, childLogs, endsComplete };
}

/** How many events come after the child's RunEnd up to the parent's next model step, in a run left alone. */
async function pointsOf(engine: HarnessEngine): Promise<number> {
  const events = await eventsOf(engine.stream('go'));
  const end = events.findIndex(isChildEnd);
  const next = events.findIndex((e, i) => i > end && isNextStep(e));
  expect(end).toBeGreaterThan(0);
  expect(next).toBeGreaterThan(end);
  expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  return next - end;
}

/**
 * Subscribes to `events$` and calls `stop` right after the k-th event from the child's RunEnd
 * on (k = 0: at the RunEnd itself); settles once the stream has ended or was let go.
 */
function stopAt(events$: Observable<AgentEvent>, k: number, stop: (subscription: Subscription) => void) {
  const seen: AgentEvent[] = [];
  let since = -1;
  return new Promise<{ seen: AgentEvent[]; ended: 'complete' | 'error' | 'let go'; stopped: boolean; error?: unknown }>((resolve) => {
    const subscription: Subscription = events$.subscribe({
      next: (e) => {
        seen.push(e);
        if (since < 0 && isChildEnd(e)) since = 0;
        else if (since >= 0) since++;
        if (since === k) {
          stop(subscription);
          if (subscription.closed) resolve({ seen, ended: 'let go', stopped: true });
        }
      },
      complete: () => resolve({ seen, ended: 'complete', stopped: since >= k }),
      error: (error: unknown) => resolve({ seen, ended: 'error', stopped: since >= k, error }),
    });
  });
}

/** One way to stop the parent at a point: it stops a run of `engine` at point `at` and checks how that run ended. */
interface StopMode {
  /** What the test checks, this way of stopping. */
  readonly title: string;
  /** Runs the parent once, stopped right after the `at`-th event from its child's RunEnd on. */
  readonly stopOnce: (engine: HarnessEngine, at: number) => Promise<void>;
}

const MODES: readonly StopMode[] = [
  {
    title: 'let go (unsubscribed) at each point: emits nothing more, its child log ends complete, nothing left open',
    stopOnce: async (engine, at) => {
      const { seen, ended } = await stopAt(engine.stream('go'), at, (subscription) => subscription.unsubscribe());
      expect(ended, `point ${at}`).toBe('let go');
      expect(seen.filter(isChildEnd), `point ${at}`).toHaveLength(1);
      expect(seen.filter((e) => e.type === 'RunEnd'), `point ${at}`).toEqual([]);
    },
  },
  {
    title: 'cancelled through the engine at each point: ends once (or aborts without an end), its child log ends complete, nothing left open',
    stopOnce: async (engine, at) => {
      const handle = engine.start('go');
      const settled = handle.result.then(
        () => 'resolved',
        (e: unknown) => (e as Error).name,
      );
      const events$ = handle.events$.pipe(map((sequenced) => sequenced.event));
      const { seen, ended, stopped, error } = await stopAt(events$, at, () => handle.cancel());
      expect(stopped, `point ${at}: cancelled there`).toBe(true);
      const ends = seen.filter((e) => e.type === 'RunEnd');
      // Exactly one terminal event, last; or the stream aborted (a cancelled run's log ends so) with none.
      if (ended === 'complete') {
        expect(ends, `point ${at}`).toHaveLength(1);
        expect(seen.at(-1)?.type, `point ${at}`).toBe('RunEnd');
        expect(await settled, `point ${at}`).toBe('resolved');
      } else {
        expect(ended, `point ${at}`).toBe('error');
        expect((error as Error).name, `point ${at}`).toBe('AbortError');
        expect(ends, `point ${at}`).toEqual([]);
        expect(await settled, `point ${at}`).toBe('AbortError');
      }
    },
  },
];

describe.skipIf(!HAS_REDIS)('a parent run stopped after its remote child answered', () => {
  const scale = useScaleKits();

  // A loop rather than `it.each`, so each test keeps its title unquoted.
  for (const { title, stopOnce } of MODES) {
    it(title, async () => {
      const baseline = resourceCounts();
      const k = await scale.kit(30_000);
      const { engine, childLogs, endsComplete } = await deployment(k);
      const points = await pointsOf(engine);
      for (let at = 0; at <= points; at++) {
        const before = await childLogs();
        await stopOnce(engine, at);
        await waitFor(async () => (await childLogs()).length > before.length);
        const [log] = (await childLogs()).filter((key) => !before.includes(key));
        await endsComplete(log!, `point ${at}`);
      }
      // Checked again once every later run is over: no cancel reached a finished job late.
      for (const log of await childLogs()) await endsComplete(log, `${log}, at the end`);
      expect(engine.tasks.list().map((t) => t.state)).toEqual(Array.from({ length: points + 2 }, () => 'done'));
      await k.close();
      expect(await leakedResources(baseline, 200)).toEqual({});
    }, 120_000);
  }
});
