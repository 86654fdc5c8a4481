/**
 * A run without a `sessionId` is over for good when it ends: the results of its background
 * tasks have no next prompt, so none is kept for delivery (docs/delegation.md, "Background
 * tasks"). That holds for the background tasks its background tasks start after it ended
 * too: kept, they would wait for ever among the waiting results, which every conversation
 * shares, and push out a live conversation's result.
 */
import { describe, expect, it, vi } from 'vitest';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { testAgent } from '../support/agent-turns.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

const background = (agent: string, prompt: string) => ({ toolCalls: [{ name: 'task', args: { agent_name: agent, prompt, description: prompt, background: true } }] });

describe('background tasks started after their ephemeral run ended', () => {
  it('keep no result for delivery: a conversation still gets its own waiting result', async () => {
    const o = await offline(
      {
        main: (turn) => (turn.prompt === 'scan' ? scriptedSteps(background('scout', 'scan'))(turn) : turn.prompt === 'keep' ? scriptedSteps(background('beta', 'kept'))(turn) : { text: 'ok' }),
        // The scout starts its own task only after 1 s, long after the ephemeral run ended.
        scout: (turn) => (turn.step === 1 ? { ...background('beta', 'late'), delayMs: 1_000 } : { text: 'scouted' }),
        beta: (turn) => ({ text: `beta did ${turn.prompt}`, delayMs: turn.prompt === 'late' ? 10 : 0 }),
      },
      [testAgent('scout', { tools: ['task'] }), testAgent('beta')],
      // One waiting result at most: an orphan kept for delivery would push out the conversation's.
      { maxDepth: 2, taskTrackerLimits: { undeliveredResults: 1 } },
    );
    vi.useFakeTimers();
    const { engine, model } = o;
    await engine.call('scan'); // ephemeral: no sessionId
    await engine.call('keep', { sessionId: 's1' });
    await vi.runAllTimersAsync();
    expect(engine.tasks.list().map((t) => [t.description, t.state])).toEqual([
      ['scan', 'done'],
      ['kept', 'done'],
      ['late', 'done'],
    ]);

    await engine.call('next', { sessionId: 's1' });
    const prompt = String(model.requests.at(-1)!.messages.findLast((m) => m.role === 'user')!.content);
    expect(prompt).toContain('beta did kept');
    expect(prompt).not.toContain('dropped unread');
  });
});

describe('TaskTracker.forgetSession', () => {
  const startBackground = (tracker: TaskTracker, taskId: string): void =>
    tracker.start({ taskId, agentName: 'alpha', description: taskId, sessionId: 's1', parentRunId: 'run_1', background: true }, () => tracker.finish(taskId, 'cancelled', 'ERROR: cancelled'));

  it('orphans what the forgotten tasks start while they run, and only until the last of them ends', () => {
    const tracker = new TaskTracker();
    startBackground(tracker, 'parent');
    tracker.forgetSession('s1');
    startBackground(tracker, 'child'); // started by the forgotten parent
    tracker.finish('child', 'done', 'child result');
    tracker.finish('parent', 'done', 'parent result');
    expect(tracker.takeUndelivered('s1')).toEqual([]);

    // A new conversation taking the id (a deleted one's) gets its own results.
    startBackground(tracker, 'fresh');
    tracker.finish('fresh', 'done', 'fresh result');
    expect(tracker.takeUndelivered('s1').map((t) => t.result)).toEqual(['fresh result']);
  });
});
