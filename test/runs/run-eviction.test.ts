import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// Eviction reads the finished runs incrementally (not a copy of every run at each start):
// these pin down WHICH runs it keeps when runs end in another order than they started.

let ws: TestWorkspace | undefined;
let engine: HarnessEngine | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await engine?.close();
  await ws?.cleanup();
  engine = ws = undefined;
});

/** A prompt `slow <ms>` is answered after that many (fake) milliseconds, any other at once. */
async function engineWith(options: Partial<HarnessEngineOptions>): Promise<HarnessEngine> {
  ws = await makeWorkspace();
  const model = new ScriptedModel(({ messages }) => {
    const prompt = messages.findLast((m) => m.role === 'user')?.content ?? '';
    const delay = /^slow (\d+)/.exec(prompt);
    return { text: 'ok', ...(delay ? { delayMs: Number(delay[1]) } : {}) };
  });
  engine = new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.home, ...options });
  return engine;
}

const kept = (e: HarnessEngine) => e.runs.list().map((r) => r.runId);

describe('engine.runs eviction: which finished runs are kept', () => {
  it('beyond maxRetainedRuns, drops the oldest STARTED finished run, though it ended last', async () => {
    const e = await engineWith({ maxRetainedRuns: 2 });
    const first = e.start('slow 500');
    const second = e.start('quick');
    const third = e.start('quick');
    await Promise.all([second.result, third.result]);
    expect(kept(e)).toEqual([first.runId, second.runId, third.runId]); // the first still runs
    await vi.advanceTimersByTimeAsync(500);
    await first.result;
    // Three finished, two kept: the first started goes, not the first to have ended.
    expect(kept(e)).toEqual([second.runId, third.runId]);
  });

  it('past runRetentionMs, drops a run that ended long ago though an earlier-started one is kept', async () => {
    const e = await engineWith({ runRetentionMs: 1000 });
    const early = e.start('slow 600');
    const late = e.start('quick');
    await late.result; // ends at t = 0
    await vi.advanceTimersByTimeAsync(600);
    await early.result; // ends at t = 600
    await vi.advanceTimersByTimeAsync(500); // t = 1100: late ended 1100 ago, early 500 ago
    expect(kept(e)).toEqual([early.runId]);
    await vi.advanceTimersByTimeAsync(600);
    expect(kept(e)).toEqual([]);
  });

  it('a cancelled run counts as finished: it is evicted like one that ended', async () => {
    const e = await engineWith({ maxRetainedRuns: 1 });
    const cancelled = e.start('slow 500');
    expect(e.runs.cancel(cancelled.runId)).toBe(true);
    await expect(cancelled.result).rejects.toMatchObject({ name: 'AbortError' });
    const next = e.start('quick');
    await next.result;
    expect(kept(e)).toEqual([next.runId]);
  });

  it('a running run is never evicted, whatever the bounds', async () => {
    const e = await engineWith({ maxRetainedRuns: 0, runRetentionMs: 0, maxRetainedRunBytes: 0 });
    const running = e.start('slow 5000');
    const done = e.start('quick');
    await done.result;
    await vi.advanceTimersByTimeAsync(10);
    expect(kept(e)).toEqual([running.runId]);
    await vi.advanceTimersByTimeAsync(5000);
    await running.result;
    expect(kept(e)).toEqual([]);
  });

  it('keeps a finished run for runRetentionMs of real time, whatever the wall clock does', async () => {
    const e = await engineWith({ runRetentionMs: 1000 });
    const run = e.start('quick');
    await run.result;
    // An hour back (an NTP step, a VM restored): on the wall clock the run ended in the
    // future, and it would be kept an hour more. The monotonic clock did not move.
    vi.setSystemTime(Date.now() - 3_600_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(kept(e)).toEqual([run.runId]);
    await vi.advanceTimersByTimeAsync(2);
    expect(kept(e)).toEqual([]);

    // An hour forward: on the wall clock a run that just ended is long expired; it stays.
    const next = e.start('quick');
    await next.result;
    vi.setSystemTime(Date.now() + 3_600_000);
    expect(kept(e)).toEqual([next.runId]);
    expect(e.runs.get(next.runId)?.state).toBe('done');
    await vi.advanceTimersByTimeAsync(1001);
    expect(e.runs.get(next.runId)).toBeUndefined();
  });

  it('a cancelled run is kept for runRetentionMs from its cancel, like one that ended', async () => {
    const e = await engineWith({ runRetentionMs: 1000 });
    await vi.advanceTimersByTimeAsync(5000); // the monotonic clock well past 0: an unset end would read as long expired
    const cancelled = e.start('slow 60000');
    await vi.advanceTimersByTimeAsync(10);
    expect(e.runs.cancel(cancelled.runId)).toBe(true);
    await expect(cancelled.result).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(999);
    expect(kept(e)).toEqual([cancelled.runId]);
    await vi.advanceTimersByTimeAsync(2);
    expect(kept(e)).toEqual([]);
  });
});
