import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collected } from '../support/collected.js';
import { deletedInProcess } from '../../src/engine/deleted-in-process.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import type { SessionStore } from '../../src/session/session-store.js';

// What an engine's view gives a store that tells its deletes (`watchDeletes`): a store keeps
// what it watches until unwatched, so the view must give it something that lets a dropped
// engine go (never told again, not kept alive), and must not be told of its own deletes.

/** A custom store keeping its watchers as a user's store would: strongly, until unwatched. */
class WatchingStore implements SessionStore {
  readonly watchers = new Set<(sessionId: string, taskIds: readonly string[]) => void>();
  load(): readonly ChatMessage[] {
    return [];
  }
  append(): void {}
  delete(sessionId: string): void {
    for (const watcher of [...this.watchers]) watcher(sessionId, ['task_1']);
  }
  watchDeletes(watcher: (sessionId: string, taskIds: readonly string[]) => void): () => void {
    this.watchers.add(watcher);
    return () => void this.watchers.delete(watcher);
  }
}

describe('deletedInProcess on a store with watchDeletes', () => {
  it('is told of a delete made on the store: stops the conversation\'s tasks and refuses their writes meanwhile', () => {
    const store = new WatchingStore();
    const stopped: string[] = [];
    const view = deletedInProcess(store, async (id) => void stopped.push(id), () => {});
    store.delete('notes');
    expect(stopped).toEqual(['notes']);
    expect(() => view!.guard.beforeWrite('task_1')).toThrow(/deleted/i);
  });

  it('is not told of its own delete, also when the store deletes asynchronously', async () => {
    const store = new WatchingStore();
    const stopped: string[] = [];
    const view = deletedInProcess(store, async (id) => void stopped.push(id), () => {});
    await view!.own('notes', async () => {
      await turn();
      store.delete('notes');
    });
    expect(stopped).toEqual([]);
    // Its own delete over, a delete made on the store is told again.
    store.delete('notes');
    expect(stopped).toEqual(['notes']);
  });

  it('a dropped engine\'s view is not kept alive by the store, and is told nothing after', async () => {
    const store = new WatchingStore();
    const stopped: string[] = [];
    const told = ((): WeakRef<object> => new WeakRef(deletedInProcess(store, async (id) => void stopped.push(id), () => {})!.told))();
    expect(store.watchers.size).toBe(1);
    expect(await collected(told)).toBe(true);
    store.delete('notes');
    expect(stopped).toEqual([]);
    // Its relay unwatched (at the latest at that delete): the store no longer keeps it either.
    expect(store.watchers.size).toBe(0);
  });
});
