import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// `after` is a seq: a value that is not one used to compare false with every index, so a
// reader got nothing and a completion, as if the run had had no events (not even its RunEnd).

const fresh = toolContextPerTest();

const NOT_SEQS = [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, 2 ** 53, '3' as unknown as number];
const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

describe('engine.runs.attach(runId, { after })', () => {
  it.each(NOT_SEQS)('refuses after: %s with a TypeError naming it', async (after) => {
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'hello' }]), workspace: fresh.ws.dir, homeDir: fresh.ws.home });
    const run = engine.start('hi');
    await run.result;
    expect((await lastValueFrom(engine.runs.attach(run.runId).pipe(toArray()))).length).toBeGreaterThan(2);
    await expect(lastValueFrom(engine.runs.attach(run.runId, { after }).pipe(toArray()))).rejects.toThrow(
      new TypeError(`engine.runs.attach: \`after\` must be a whole number of at least 0 (the seq of the last event seen; 0 for every event), got ${shown(after)}`),
    );
    await engine.close();
  });

  it('takes 0, a seq within the run, and one past its end', async () => {
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'hello' }]), workspace: fresh.ws.dir, homeDir: fresh.ws.home });
    const run = engine.start('hi');
    await run.result;
    const all = await lastValueFrom(engine.runs.attach(run.runId, { after: 0 }).pipe(toArray()));
    const rest = await lastValueFrom(engine.runs.attach(run.runId, { after: 2 }).pipe(toArray()));
    expect(rest.map((e) => e.seq)).toEqual(all.slice(2).map((e) => e.seq));
    expect(await lastValueFrom(engine.runs.attach(run.runId, { after: all.length + 5 }).pipe(toArray()))).toEqual([]);
    await engine.close();
  });
});

describe('MemoryEventLog.read(runId, after)', () => {
  it.each(NOT_SEQS)('errors for after: %s, naming it', async (after) => {
    const log = new MemoryEventLog();
    log.open('r');
    await expect(lastValueFrom(log.read('r', after).pipe(toArray()))).rejects.toThrow(/^MemoryEventLog\.read: `after` must be a whole number of at least 0/);
  });
});
