/**
 * A store remembers the conversations deleted in its process (so that a late task save for
 * one is refused), up to a bound. An ephemeral run deletes each of its tasks' sessions as it
 * ends: a flood of such deletes (a busy server answering one-shot calls that delegate) must
 * not push a deleted conversation out of that memory, or a task save for it asked late would
 * be kept again, and outlive (resurrect) the deleted conversation.
 */
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

/** More than the 10,000 deletes a store remembers. */
const FLOOD = 10_500;
const task = (taskId: string, ownerSessionId: string): TaskSessionInfo => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId, parentSessionId: ownerSessionId });
const refused = { name: 'DeletedConversationError', taskId: 'late', conversation: 'A' };

const ws = workspaceHomePerTest();

describe('a deleted conversation after a flood of ephemeral task deletes', () => {
  it('FileSessionStore still refuses a late task save for it', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.append('A', [{ role: 'user', content: 'hello' }]);
    await store.delete('A');
    // As ephemeral runs do: each task's info is saved as it starts, its session deleted as the run ends.
    for (let i = 0; i < FLOOD; i += 250) {
      await Promise.all(
        Array.from({ length: 250 }, async (_, j) => {
          const id = `t${i + j}`;
          await store.saveTaskInfo(task(id, `e${j}`));
          await store.delete(id);
        }),
      );
    }
    await expect(store.saveTaskInfo(task('late', 'A'))).rejects.toMatchObject(refused);
    expect(await store.loadTaskInfo('late')).toBeUndefined();
  }, 120_000);

  it('MemorySessionStore still refuses a late task save for it', () => {
    const store = new MemorySessionStore();
    store.append('A', [{ role: 'user', content: 'hello' }]);
    store.delete('A');
    for (let i = 0; i < FLOOD; i++) {
      store.saveTaskInfo(task(`t${i}`, `e${i % 7}`));
      store.append(`t${i}`, [{ role: 'user', content: 'work' }]);
      store.delete(`t${i}`);
    }
    expect(() => store.saveTaskInfo(task('late', 'A'))).toThrow(expect.objectContaining(refused));
    expect(store.loadTaskInfo('late')).toBeUndefined();
  });

});
