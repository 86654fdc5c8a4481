import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { own, record, wraps, type EventRecording } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { handleCounts, isAlive, leakedHandles } from '../support/handle-counts.js';

// A child running `sleep 30` through the bash tool is cancelled: the sleep process is gone,
// and no process, pipe, timer or socket handle is left.

let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** `exec`, so the pid written is the sleep itself: node's own child, reaped by node. */
const SLEEP = 'echo $$ > sleep.pid; exec sleep 30';

/** Starts main → task(runner) → bash(sleep); resolves once the sleep runs, with its pid. */
async function sleepingChild(): Promise<{ engine: HarnessEngine; run: EventRecording; pid: number }> {
  fixture = await startDelegationFixture({
    main: steps(taskReply('runner', 'sleep a while')),
    runner: (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'bash', arguments: { command: SLEEP } }] } : { text: 'woke up' }),
  });
  const engine = fixture.engine({ permissionRules: [{ tool: 'bash', action: 'allow' }] }, [testAgent('runner')]);
  const run = record(engine.stream('go'));
  const pidFile = join(fixture.workspace.dir, 'sleep.pid');
  const pid = await vi.waitFor(
    async () => {
      const text = (await readFile(pidFile, 'utf8').catch(() => '')).trim();
      expect(text).toMatch(/^\d+$/);
      return Number(text);
    },
    { timeout: 10_000, interval: 10 },
  );
  expect(isAlive(pid)).toBe(true);
  return { engine, run, pid };
}

/** Waits until the process is gone (its exit is reported asynchronously). */
async function expectGone(pid: number): Promise<void> {
  await vi.waitFor(() => expect(isAlive(pid), `pid ${pid} still alive`).toBe(false), { timeout: 5_000, interval: 10 });
}

describe('a bash sleep in a cancelled child', () => {
  it('is killed when the parent run is unsubscribed, and nothing is left open', async () => {
    const baseline = handleCounts();
    const { run, pid } = await sleepingChild();
    run.subscription.unsubscribe();

    await expectGone(pid);
    await fixture!.close();
    fixture = undefined;
    expect(await leakedHandles(baseline)).toEqual({});
    expect(run.completed).toBe(false);
  });

  it('is killed when the task is cancelled by id; the parent reads a failure and ends normally', async () => {
    const baseline = handleCounts();
    const { engine, run, pid } = await sleepingChild();
    const [task] = engine.tasks.list();
    expect(engine.cancelTask(task!.taskId)).toBe(true);

    await expectGone(pid);
    await run.done;
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    const result = own(run.events, 'ToolCallEnd').find((e) => e.toolName === 'task')!;
    expect(result.text).toContain('<result_status>failure</result_status>');
    expect(result.text).toMatch(/ERROR: the runner task .* was cancelled/);
    // The cancelled child got no RunEnd: nothing faked one.
    expect(wraps(run.events).some((w) => w.event.type === 'RunEnd')).toBe(false);
    await fixture!.close();
    fixture = undefined;
    expect(await leakedHandles(baseline)).toEqual({});
  });
});
