/**
 * A task's list of its logs (what a conversation's delete reads to find them) is kept as long
 * as a log a worker starts writing can live: a job taken long after its launcher listed the
 * log would otherwise see the list expire (after the open's `maxLiveMs` + retention) while the
 * log, whose deadline the worker's first event set again, lives on; the delete would miss it.
 * A real engine, worker and Redis; the wait in the queue is played by cutting the list's expiry.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor } from './scale-kit.js';

/** What is left of the list's expiry when the worker takes the job: it waited in the queue. */
const LEFT_OF_THE_OPEN_MS = 60_000;
/** The launching engine's retention, which the worker keeps the task's logs by (not its own default). */
const ENGINE_RETENTION_MS = 7 * 60_000;
/** Room for the round trips between the write and the look at its expiry. */
const SLACK_MS = 60_000;

describe.skipIf(!HAS_REDIS)("a task's list of logs, once a worker writes its first event", () => {
  const scale = useScaleKits();

  it("is kept as long as the log can live, by the launching engine's retention", { timeout: 60_000 }, async () => {
    const kit = await scale.kit(30_000);
    kit.fixture.route({ main: steps(taskReply('explorer', 'find it', 'find')), explorer: () => ({ text: 'found it' }) });
    const { parts } = await kit.backend();
    const engine = await kit.engine({ distributeTasks: true }, [testAgent('explorer')], await kit.backend({ retentionMs: ENGINE_RETENTION_MS }));
    const run = eventsOf(engine.stream('go'));
    // The job is queued (its log listed) and no worker has taken it yet.
    let lists: string[] = [];
    await waitFor(async () => (lists = await parts.redis.keys(parts.keys.taskLogs('*'))).length > 0);
    expect(lists).toHaveLength(1);
    const list = lists[0]!;
    await parts.redis.pexpire(list, LEFT_OF_THE_OPEN_MS);
    await kit.worker();
    const events = await run;
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    const ttl = await parts.redis.pttl(list);
    expect(ttl).toBeGreaterThan(parts.eventLog.maxLiveMs + ENGINE_RETENTION_MS - SLACK_MS);
    expect(ttl).toBeLessThanOrEqual(parts.eventLog.maxLiveMs + ENGINE_RETENTION_MS);
  });
});
