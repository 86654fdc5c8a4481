/**
 * A prompt tells at most `LOST_PER_PROMPT` lost background tasks, counted among those the
 * store records as the conversation's: a start whose task info is gone (its session deleted)
 * or belongs elsewhere takes no slot (a1's review: ten such took every slot at every prompt,
 * and a genuine lost task behind them was never told).
 */
import { describe, expect, it } from 'vitest';
import { LOST_PER_PROMPT, lostBackgroundResults } from '../../src/delegation/lost-background.js';
import { formatTaskResult } from '../../src/delegation/task-result-format.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';

const none = { get: () => undefined };

/** A history starting `count` background tasks task_0…, each with its session (answer `answer i`) owned by `owner(i)`. */
function started(store: MemorySessionStore, count: number, owner: (i: number) => string): ChatMessage[] {
  const history: ChatMessage[] = [];
  for (let i = 0; i < count; i += 1) {
    const taskId = `task_${i}`;
    store.saveTaskInfo({ taskId, agentName: 'explore', description: 'look', ownerSessionId: owner(i) });
    store.append(taskId, [{ role: 'user', content: 'go' }, { role: 'assistant', content: `answer ${i}` }]);
    const content = formatTaskResult({ taskId, agentName: 'explore', description: 'look', status: 'running', content: `Started in the background as ${taskId}.` });
    history.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'task', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c${i}`, content });
  }
  return history;
}
const ids = async (lost: ReturnType<typeof lostBackgroundResults>): Promise<string[]> => (await lost).map((r) => r.taskId);

describe('lost background tasks told per prompt', () => {
  it('tells an owned task behind ten starts whose sessions were deleted', async () => {
    const store = new MemorySessionStore();
    const history = started(store, LOST_PER_PROMPT + 1, () => 'chat');
    for (let i = 0; i < LOST_PER_PROMPT; i += 1) store.delete(`task_${i}`);
    expect(await ids(lostBackgroundResults(history, 'chat', none, store))).toEqual([`task_${LOST_PER_PROMPT}`]);
  });

  it("tells the conversation's own tasks past starts another conversation owns, still at most LOST_PER_PROMPT", async () => {
    const store = new MemorySessionStore();
    const history = started(store, 2 * LOST_PER_PROMPT + 2, (i) => (i < LOST_PER_PROMPT ? 'other' : 'chat'));
    const own = Array.from({ length: LOST_PER_PROMPT }, (_, i) => `task_${LOST_PER_PROMPT + i}`);
    expect(await ids(lostBackgroundResults(history, 'chat', none, store))).toEqual(own);
  });
});
