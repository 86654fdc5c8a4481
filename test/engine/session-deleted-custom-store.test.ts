import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionClaim } from '../../src/session/session-claim.js';
import type { SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from '../../src/session/session-store.js';
import { settled } from '../support/lifecycle-script.js';
import { expectOtherDeleteKeepsResult, startScan, twoEnginesSharing } from './support/deleted-elsewhere.js';
import { scanEnginesPerTest } from './support/scan-engines.js';

// Two engines sharing a store of the user's own in a process: a store that tells its deletes
// (`watchDeletes`) must get what a MemorySessionStore gets, a delete by one engine (or on the
// store) stopping the other's background tasks of the conversation. Not a MemorySessionStore,
// so nothing here can be told by recognising the class.

/**
 * A custom store: a MemorySessionStore behind methods of its own, deleting asynchronously (as
 * a store over a service would). It keeps task info (`saveTaskInfo`) so that it knows the
 * tasks a delete takes and tells them; `SharedStoreReadingTasks` reads it back too (a store
 * with `loadTaskInfo` and `watchDeletes` is watched, not read at claims).
 */
class SharedStore implements SessionStore {
  protected readonly inner = new MemorySessionStore();
  load(sessionId: string): readonly ChatMessage[] {
    return this.inner.load(sessionId);
  }
  append(sessionId: string, messages: readonly ChatMessage[]): void {
    this.inner.append(sessionId, messages);
  }
  async delete(sessionId: string): Promise<void> {
    await Promise.resolve();
    this.inner.delete(sessionId);
  }
  saveTaskInfo(info: TaskSessionInfo): void {
    this.inner.saveTaskInfo(info);
  }
  claim(sessionId: string, owner: string): SessionClaim {
    return this.inner.claim(sessionId, owner);
  }
  list(request?: SessionListRequest): SessionSummary[] {
    return this.inner.list(request);
  }
  watchDeletes(watcher: (sessionId: string, taskIds: readonly string[]) => void): () => void {
    return this.inner.watchDeletes(watcher);
  }
}

/** The same store with `loadTaskInfo`: still watched, as it tells its deletes. */
class SharedStoreReadingTasks extends SharedStore {
  loadTaskInfo(taskId: string): TaskSessionInfo | undefined {
    return this.inner.loadTaskInfo(taskId);
  }
}

const scan = scanEnginesPerTest();
const twoEngines = (Store: new () => SharedStore = SharedStore) => twoEnginesSharing<SharedStore>(scan, new Store());

describe('a conversation deleted on a custom store that tells its deletes, shared by two engines', () => {
  for (const [who, remove, Store] of [
    ['the other engine', (b: HarnessEngine, _store: SharedStore) => b.sessions.delete!('notes'), SharedStore],
    ['a call on the store itself', (_b: HarnessEngine, store: SharedStore) => store.delete('notes'), SharedStore],
    ['a call on a store that also reads task info', (_b: HarnessEngine, store: SharedStore) => store.delete('notes'), SharedStoreReadingTasks],
  ] as const) {
    it(`deleted by ${who}: stops the task still running, which writes nothing back nor reaches a new conversation of the id`, async () => {
      let open!: () => void;
      await scan.serve(new Promise<void>((r) => (open = r)), 'SECRET FINDINGS of the scan');
      const [a, b, store] = await twoEngines(Store);
      const task = await startScan(a);
      expect(a.tasks.get(task)?.state).toBe('running');
      await remove(b, store);
      expect(a.tasks.get(task)?.state).not.toBe('running');
      open();
      await settled(a.tasks, task);
      expect(store.list().map((s) => s.sessionId)).toEqual([]);
      expect(store.load(task)).toEqual([]);
      await a.call('Hi, I am new here', { sessionId: 'notes' });
      expect(scan.lastPrompt()).toBe('Hi, I am new here');
    }, 60_000);
  }

  it('a delete of another conversation leaves the task and its result', async () => {
    await scan.serve(Promise.resolve(), 'SECRET FINDINGS of the scan');
    await expectOtherDeleteKeepsResult(scan, await twoEngines(), 'SECRET FINDINGS of the scan');
  }, 60_000);
});
