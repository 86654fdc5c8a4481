/**
 * A {@link MemorySessionStore} behind a plain `SessionStore`, with some methods replaced:
 * how a test makes a store slow or gated at one point without rewriting the rest.
 *
 * @module
 */
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';

/** Every method of a memory store, except those in `overrides`, which get the store to call. */
export function wrappedMemoryStore(overrides: (memory: MemorySessionStore) => Partial<SessionStore>): Required<SessionStore> {
  const memory = new MemorySessionStore();
  return {
    load: (id) => memory.load(id),
    append: (id, messages) => memory.append(id, messages),
    saveTaskInfo: (info) => memory.saveTaskInfo(info),
    loadTaskInfo: (id) => memory.loadTaskInfo(id),
    delete: (id) => memory.delete(id),
    ...overrides(memory),
  } as Required<SessionStore>;
}
