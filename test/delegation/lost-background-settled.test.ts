/**
 * A start in a conversation's history whose task the store says is not the conversation's
 * (another owner, or its task info gone with its session) is never told to it, and never will
 * be: its task info is read once, not at every prompt of the conversation for good. A read
 * that fails is no answer: that start is read again at the next prompt.
 */
import { describe, expect, it } from 'vitest';
import { lostBackgroundResults } from '../../src/delegation/lost-background.js';
import { settledStarts } from '../../src/delegation/settled-starts.js';
import { formatTaskResult } from '../../src/delegation/task-result-format.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';

const none = { get: () => undefined };

/** A real store whose task info reads are counted by id; `failing` ids throw at their first read. */
function countingStore(failing: readonly string[] = []) {
  const inner = new MemorySessionStore();
  const reads = new Map<string, number>();
  const failed = new Set<string>();
  const store = {
    load: (id: string) => inner.load(id),
    loadTaskInfo: (taskId: string): TaskSessionInfo | undefined => {
      reads.set(taskId, (reads.get(taskId) ?? 0) + 1);
      if (failing.includes(taskId) && !failed.has(taskId)) {
        failed.add(taskId);
        throw new Error('store briefly unreachable');
      }
      return inner.loadTaskInfo(taskId);
    },
  };
  return { inner, store, reads };
}

/** A history starting each of `taskIds` in the background; each with a session and, when `owners` names one, its task info. */
function started(inner: MemorySessionStore, owners: Record<string, string | undefined>): ChatMessage[] {
  return Object.entries(owners).flatMap(([taskId, owner]): ChatMessage[] => {
    if (owner !== undefined) inner.saveTaskInfo({ taskId, agentName: 'explore', description: 'look', ownerSessionId: owner });
    inner.append(taskId, [{ role: 'user', content: 'go' }, { role: 'assistant', content: `answer of ${taskId}` }]);
    const content = formatTaskResult({ taskId, agentName: 'explore', description: 'look', status: 'running', content: `Started in the background as ${taskId}.` });
    return [{ role: 'assistant', content: '', tool_calls: [{ id: `c_${taskId}`, type: 'function', function: { name: 'task', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c_${taskId}`, content }];
  });
}
const told = async (lost: ReturnType<typeof lostBackgroundResults>): Promise<string[]> => (await lost).map((r) => r.taskId);

describe('starts that are not the conversation\u2019s', () => {
  it('are read once: later prompts read no task info for them, and tell nothing without a load', async () => {
    const { inner, store, reads } = countingStore();
    const history = started(inner, { task_other: 'chat2', task_gone: undefined });
    expect(await told(lostBackgroundResults(history, 'chat', none, store))).toEqual([]);
    for (let prompt = 0; prompt < 3; prompt += 1) {
      // nothing left to read: answered at once, as for a conversation without lost tasks
      expect(lostBackgroundResults(history, 'chat', none, store)).toEqual([]);
    }
    expect(Object.fromEntries(reads)).toEqual({ task_other: 1, task_gone: 1 });
  });

  it("still tells the conversation's own task at each prompt until its block is saved, and another conversation its own", async () => {
    const { inner, store, reads } = countingStore();
    const history = started(inner, { task_other: 'chat2', task_own: 'chat' });
    expect(await told(lostBackgroundResults(history, 'chat', none, store))).toEqual(['task_own']);
    expect(await told(lostBackgroundResults(history, 'chat', none, store))).toEqual(['task_own']);
    expect(Object.fromEntries(reads)).toEqual({ task_other: 1, task_own: 2 });
    // settled for `chat` only: the conversation that owns it reads and tells it
    expect(await told(lostBackgroundResults(history, 'chat2', none, store))).toEqual(['task_other']);
  });

  it('reads again at the next prompt a task info whose read failed', async () => {
    const { inner, store, reads } = countingStore(['task_own']);
    const history = started(inner, { task_own: 'chat' });
    expect(await told(lostBackgroundResults(history, 'chat', none, store))).toEqual([]);
    expect(await told(lostBackgroundResults(history, 'chat', none, store))).toEqual(['task_own']);
    expect(reads.get('task_own')).toBe(2);
  });
});

describe('the settled starts kept, bounded', () => {
  it('keeps 1,000 starts of a conversation, the oldest going first', () => {
    const store = {};
    const settled = settledStarts(store, 'chat');
    for (let i = 0; i <= 1000; i += 1) settled.add(`task_${i}`);
    expect([settled.has('task_0'), settled.has('task_1'), settled.has('task_1000')]).toEqual([false, true, true]);
  });

  it('keeps 256 conversations of a store, the least recently asked going first', () => {
    const store = {};
    settledStarts(store, 'c0').add('task_a');
    settledStarts(store, 'c1').add('task_a');
    for (let i = 2; i <= 257; i += 1) {
      settledStarts(store, 'c1'); // asked at each prompt: kept
      settledStarts(store, `c${i}`).add('task_a');
    }
    expect([settledStarts(store, 'c0').has('task_a'), settledStarts(store, 'c1').has('task_a'), settledStarts({}, 'c1').has('task_a')]).toEqual([false, true, false]);
  });

  it('keeps no id longer than the engine makes (a forged one, read at each prompt instead)', () => {
    const settled = settledStarts({}, 'chat');
    settled.add(`task_${'x'.repeat(10_000)}`);
    expect(settled.has(`task_${'x'.repeat(10_000)}`)).toBe(false);
  });
});
