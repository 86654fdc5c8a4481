import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

/** Uncaught exceptions while `body` runs (and one timer turn after it). */
async function uncaughtDuring(body: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (error: unknown): void => void seen.push(error);
  process.on('uncaughtException', listener);
  try {
    await body();
    // Not a sleep: RxJS throws an error that escaped a subscriber from a timer of its own with
    // no delay (`reportUnhandledError`), and Node fires timers of equal delay in the order they
    // were set, so one set now fires after every such throw of the body: no wait longer helps.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    process.off('uncaughtException', listener);
  }
  return seen;
}

describe('a cancel that arrives while a started run is still being subscribed (synchronous model)', () => {
  it('takes effect: the run stops at once, the cancel returns true, and nothing is thrown out of a subscriber', async () => {
    ws = await makeWorkspace();
    let engine!: HarnessEngine;
    const answers: boolean[] = [];
    let calls = 0;
    // A tool that cancels its own run, from inside the run's synchronous start.
    const stop = defineTool({
      name: 'stop',
      description: 'Cancels the run it belongs to.',
      input: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        calls += 1;
        answers.push(engine.runs.cancel(ctx.rootRunId));
        return 'stopped';
      },
    });
    // The model keeps calling the tool: a run that ignores the cancel goes on for 40 steps.
    const many = Array.from({ length: 40 }, () => ({ toolCalls: [{ name: 'stop', args: {} }] }));
    const model = new ScriptedModel(scriptedRoutes({ main: scriptedSteps(...many) }));
    engine = new HarnessEngine({ model, tools: [stop], workspace: ws.dir, homeDir: ws.home, maxSteps: 50 });
    let runId = '';
    const uncaught = await uncaughtDuring(async () => {
      const run = engine.start('go');
      runId = run.runId;
      await expect(run.result).rejects.toMatchObject({ name: 'AbortError' });
    });
    expect(uncaught).toEqual([]);
    expect(answers).toEqual([true]);
    expect(calls).toBe(1);
    expect(engine.runs.get(runId)?.state).toBe('cancelled');
    await engine.close();
  });
});

describe('an event log that has ended', () => {
  it('ignores a late append instead of throwing it at the appender', () => {
    const log = new MemoryEventLog();
    const event = { type: 'Warning', runId: 'r', agentName: 'main', code: 'test', message: 'm' } as const;
    log.append({ runId: 'r', seq: 1, event });
    log.end('r', { kind: 'cancelled', reason: 'the run was cancelled' });
    expect(() => log.append({ runId: 'r', seq: 2, event })).not.toThrow();
    const seen: number[] = [];
    log.read('r', 0).subscribe({ next: (e) => seen.push(e.seq), error: () => seen.push(-1) });
    expect(seen).toEqual([1, -1]);
  });
});
