import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { RxHarnessError } from '../../src/errors/rxharness-error.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import type { SessionClaim } from '../../src/session/session-claim.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { record } from '../support/collect-events.js';
import { HAS_REDIS } from '../backend/redis-server.js';
import { useScaleKits } from '../backend/scale-kit.js';
import { EMPTY_HOME } from '../support/empty-home.js';

/** What a reader of a failed run's log must still be able to branch on. */
function expectSessionBusy(error: unknown): void {
  expect(error).toMatchObject({ name: 'SessionBusyError', code: 'SESSION_BUSY' });
  expect(SessionBusyError.isInstance(error)).toBe(true);
  expect(RxHarnessError.isInstance(error)).toBe(true);
  expect((error as Error).message).toContain('session "held" is busy: run run_elsewhere');
}

describe('a failed run read back from its event log keeps its error\'s name and code', () => {
  it('memory log: a run refused its session (asynchronously, after start() returned) errors its readers with a SessionBusyError', async () => {
    const store: SessionStore = {
      load: () => [],
      append: () => undefined,
      // Asynchronous, as a store shared between processes answers: the run fails after start() returned.
      claim: async (): Promise<SessionClaim> => ({ granted: false, owner: 'run_elsewhere' }),
    };
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'never' }]), homeDir: EMPTY_HOME, sessions: store });
    const run = engine.start('hi', { sessionId: 'held' });
    await expect(run.result).rejects.toThrow(SessionBusyError);
    const read = record(engine.runs.attach(run.runId));
    await read.done;
    expect(read.events).toEqual([]);
    expectSessionBusy(read.error);
    await engine.close();
  });

  it('memory log: an ending without a code reads back as a plain Error of that name', async () => {
    const log = new MemoryEventLog();
    log.open('r');
    log.end('r', { kind: 'failed', message: 'bad input', name: 'TypeError' });
    const read = record(log.read('r', 0));
    await read.done;
    expect(read.error).toBeInstanceOf(Error);
    expect(read.error).toMatchObject({ name: 'TypeError', message: 'bad input' });
    expect(RxHarnessError.isInstance(read.error)).toBe(false);
  });
});

describe.skipIf(!HAS_REDIS)('a failed run read back from a Redis event log keeps its error\'s name and code', () => {
  const scale = useScaleKits();

  it('a run refused its session by another holder errors the readers of its Redis log, on another engine too, with a SessionBusyError', async () => {
    const kit = await scale.kit();
    const holder = await kit.backend();
    const claim = await holder.sessions.claim!('held', 'run_elsewhere');
    expect(claim.granted).toBe(true);
    const [engine, other] = [await kit.engine(), await kit.engine()];
    const run = engine.start('hi', { sessionId: 'held' });
    await expect(run.result).rejects.toMatchObject({ name: 'SessionBusyError' });
    for (const reader of [engine, other]) {
      const read = record(reader.runs.attach(run.runId));
      await read.done;
      expect(read.events).toEqual([]);
      expectSessionBusy(read.error);
    }
    if (claim.granted) claim.release();
  });
});
