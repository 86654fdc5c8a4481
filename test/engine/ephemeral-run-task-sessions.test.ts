/**
 * A run without a `sessionId` stores nothing (docs/getting-started.md, "Sessions"), so a
 * server answering one-shot calls does not grow: the sessions its tasks wrote (so that the
 * run could resume them) go once the run has ended and none of its tasks runs, those of its
 * background tasks, and of what they start meanwhile, included. A conversation's stay.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { makeWorkspace } from '../support/tool-context.js';

const offline = offlineEnginePerTest();

const task = (agent: string, prompt: string, background = false) => ({ name: 'task', args: { agent_name: agent, prompt, description: prompt, ...(background ? { background } : {}) } });

async function engineWith(sessions: MemorySessionStore) {
  const o = await offline(
    {
      main: (turn) => scriptedSteps({ toolCalls: [task('beta', `${turn.prompt} now`), task('scout', `${turn.prompt} later`, true)] })(turn),
      // The scout starts a background task of its own after 1 s, long after the run ended.
      scout: (turn) => (turn.step === 1 ? { toolCalls: [task('beta', `${turn.prompt} too`, true)], delayMs: 1_000 } : { text: 'scouted' }),
      beta: (turn) => ({ text: `beta did ${turn.prompt}`, delayMs: 10 }),
    },
    [testAgent('scout', { tools: ['task'] }), testAgent('beta')],
    { maxDepth: 2, sessions },
  );
  return o.engine;
}

describe('the task sessions of a run without a sessionId', () => {
  it('are deleted once its tasks have settled, background ones and theirs included; a conversation keeps its own', async () => {
    const sessions = new MemorySessionStore();
    const engine = await engineWith(sessions);
    vi.useFakeTimers();
    const first = engine.call('kept', { sessionId: 's1' });
    await vi.runAllTimersAsync();
    await first;
    const kept = engine.tasks.list('s1').map((t) => t.taskId);
    const once = engine.call('once'); // ephemeral
    await vi.advanceTimersByTimeAsync(100);
    await once;
    // Its background scout still runs, and may still resume the task that is done.
    const done = engine.tasks.list().find((t) => t.description === 'once now')!;
    expect(sessions.loadTaskInfo(done.taskId)).toBeDefined();
    await vi.runAllTimersAsync(); // its background tasks, and theirs, end

    const ephemeral = engine.tasks.list().filter((t) => t.sessionId !== 's1');
    expect(ephemeral.map((t) => [t.description, t.state])).toEqual([
      ['once now', 'done'],
      ['once later', 'done'],
      ['once later too', 'done'],
    ]);
    for (const t of ephemeral) {
      expect(sessions.load(t.taskId)).toEqual([]);
      expect(sessions.loadTaskInfo(t.taskId)).toBeUndefined();
    }
    expect(kept).toHaveLength(3);
    for (const id of kept) expect(sessions.loadTaskInfo(id)).toMatchObject({ ownerSessionId: 's1' });
    expect(engine.tasks.get(ephemeral[0]!.taskId)?.result).toBe('beta did once now'); // still readable in the tracker
  });

  it('leave no file in a FileSessionStore', async () => {
    const folder = await makeWorkspace();
    const store = new FileSessionStore(folder.dir, { grantKey: 'test key' });
    try {
      const o = await offline({ main: scriptedSteps({ toolCalls: [task('beta', 'now')] }), beta: () => ({ text: 'done' }) }, [testAgent('beta')], { sessions: store });
      await o.engine.call('go', { sessionId: 's1' });
      const kept = await readdir(store.dir);
      await o.engine.call('go');
      // The store deletes in its own time (its files, in each session's write queue); the
      // deadline is for a busy machine (vi.waitFor's default is one second), not a target.
      await vi.waitFor(async () => expect((await readdir(store.dir)).sort()).toEqual(kept.sort()), { timeout: 15_000, interval: 10 });
    } finally {
      await folder.cleanup();
    }
  });
});
