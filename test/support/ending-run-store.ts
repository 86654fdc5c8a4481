import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { createGate, type Gate } from './deferred.js';
import { wrappedMemoryStore } from './wrapped-store.js';

/**
 * A memory store whose writes wait on a gate once `arm()` made one: a run cancelled then
 * cannot close its turn, so its session stays held until the gate opens, however the machine
 * is loaded (the tests of a start that waits for an ending run need that window open).
 */
export function storeHoldingWrites(): { readonly sessions: Required<SessionStore>; arm(): Gate } {
  let gate: Gate | undefined;
  const sessions = wrappedMemoryStore((memory) => ({
    append: async (id, messages) => {
      await gate?.promise;
      return memory.append(id, messages);
    },
  }));
  return { sessions, arm: () => (gate = createGate()) };
}

/**
 * `engine.start`, every call passed on, with each `SessionBusyError` it throws noted in
 * `busy` on its way: how many times a waiting start was refused and tried again.
 */
export function startNotingBusy(engine: Pick<HarnessEngine, 'start'>, busy: SessionBusyError[]): HarnessEngine['start'] {
  return (prompt, options) => {
    try {
      return engine.start(prompt, options);
    } catch (error) {
      if (SessionBusyError.isInstance(error)) busy.push(error);
      throw error;
    }
  };
}
