import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { startTries } from '../../src/http/start-tries.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SessionClaim } from '../../src/session/session-claim.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { EMPTY_HOME } from '../support/empty-home.js';

/**
 * The tries of a start over a real engine whose store answers claims later, as a store shared
 * with other instances does (the Redis one): while `holder` is set, each claim is refused naming
 * it, after `engine.start` returned, so the refused run was registered (`failed`).
 */
function refusingEngine(): { engine: HarnessEngine; free: () => void } {
  let holder: string | undefined = 'run_elsewhere';
  const sessions: SessionStore = {
    load: () => [],
    append: () => undefined,
    claim: async (): Promise<SessionClaim> => (holder !== undefined ? { granted: false, owner: holder } : { granted: true, release: () => undefined }),
  };
  const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'ran' }]), homeDir: EMPTY_HOME, sessions });
  return { engine, free: () => (holder = undefined) };
}

describe('startTries', () => {
  it('a refusal tried again is forgotten; the last one, answered, stays; a started run is never forgotten', async () => {
    const { engine, free } = refusingEngine();
    const tries = startTries(engine.runs, () => engine.start('hi', { sessionId: 's' }));
    await expect(tries.attempt()).rejects.toSatisfy((e) => SessionBusyError.isInstance(e));
    const [refused] = engine.runs.list();
    expect(refused).toMatchObject({ state: 'failed', sessionId: 's' });
    tries.retried();
    expect(engine.runs.list()).toEqual([]);
    await expect(tries.attempt()).rejects.toSatisfy((e) => SessionBusyError.isInstance(e));
    expect(engine.runs.list().map((r) => r.state)).toEqual(['failed']); // not retried: the answer
    free();
    const tried = startTries(engine.runs, () => engine.start('hi', { sessionId: 's' }));
    const run = await tried.attempt();
    await run.result;
    tried.retried(); // nothing refused: nothing forgotten
    expect(engine.runs.discardRefused(run.runId)).toBe(false); // it ran
    expect(engine.runs.get(run.runId)?.state).toBe('done');
    await engine.close();
  });
});
