import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { eventBytes } from '../../src/runs/event-bytes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let ws: TestWorkspace | undefined;
let engine: HarnessEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await ws?.cleanup();
  engine = ws = undefined;
});

const KIB = 1024;

describe('engine.runs: finished runs bounded by bytes (maxRetainedRunBytes)', () => {
  it('evicts the oldest finished runs once their events hold more than the bound, whatever their count', async () => {
    ws = await makeWorkspace();
    engine = new HarnessEngine({
      model: new ScriptedModel(() => ({ text: 'ok' })),
      workspace: ws.dir,
      homeDir: ws.home,
      maxRetainedRuns: 1000, // the count alone would keep them all
      maxRetainedRunBytes: 1024 * KIB,
    });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const run = engine.start(`${i} ${'p'.repeat(200 * KIB)}`); // each RunStart holds ~400 KiB as counted
      await run.result;
      ids.push(run.runId);
      expect(engine.runs.retainedBytes).toBeLessThanOrEqual(1024 * KIB);
    }
    const kept = engine.runs.list().map((info) => info.runId);
    expect(kept).toEqual(ids.slice(-kept.length)); // the newest, in order
    expect(kept.length).toBe(2);
    expect(engine.runs.get(ids[0]!)).toBeUndefined();
    await expect(lastValueFrom(engine.runs.attach(ids[0]!))).rejects.toMatchObject({ name: 'UnknownRunError' });
  });

  it('counts a running run too, and gives its bytes back when it is evicted', async () => {
    ws = await makeWorkspace();
    engine = new HarnessEngine({
      // the reply comes on a later tick: right after start() the run is running
      model: new ScriptedModel(() => ({ text: 'ok', delayMs: 10 })),
      workspace: ws.dir,
      homeDir: ws.home,
      maxRetainedRunBytes: 0,
    });
    const run = engine.start('x'.repeat(100 * KIB));
    expect(engine.runs.retainedBytes).toBeGreaterThan(200 * KIB); // running: kept whatever the bound
    await run.result;
    expect(engine.runs.retainedBytes).toBe(0); // finished, over a bound of 0: evicted
  });
});

describe('eventBytes', () => {
  it('grows with the text an event holds: two bytes a character, plus a little per field', () => {
    const start: AgentEvent = { type: 'RunStart', runId: 'r', agentName: 'main', prompt: 'x'.repeat(10_000) } as AgentEvent;
    expect(eventBytes(start)).toBeGreaterThanOrEqual(20_000);
    expect(eventBytes(start)).toBeLessThan(20_300);
    const delta = { type: 'ReasonDelta', runId: 'r', agentName: 'main', text: 'abcd' } as AgentEvent;
    const wrapped = { type: 'TaskWrap', runId: 'p', agentName: 'main', taskId: 't', event: delta } as unknown as AgentEvent;
    expect(eventBytes(delta)).toBe(eventBytes(wrapped)); // a wrapped delta is kept as its text too
    expect(eventBytes(delta)).toBeLessThan(30);
  });
});
