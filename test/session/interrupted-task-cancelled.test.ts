/**
 * A run cancelled while its foreground `task` runs: the turn is closed at once with an
 * interrupted result for the call (`closingMessages`), which said only "interrupted", so the
 * model, told nothing of the task, started the work anew. Now that result names the task and
 * how to resume it, as a load's repair of a killed run does, saved once.
 */
import { from, takeUntil } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const KINDS = {
  memory: () => new MemorySessionStore(),
  file: () => new FileSessionStore(f.workspace.dir, { grantKey: 'interrupted-cancel-test-key' }),
} satisfies Record<string, () => SessionStore>;

describe.each(Object.keys(KINDS) as (keyof typeof KINDS)[])('a run cancelled during a foreground task (%s store)', (kind) => {
  it('closes the task call with a result naming the task, which the next run reads and resumes', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    const arrived = createGate();
    const hang = createGate();
    f.route({
      main: steps(lifecycleTaskReply('alpha', 'write the report', {}, 'report')),
      alpha: async () => {
        arrived.open();
        await hang.promise;
        return { text: 'never' };
      },
    });
    // Unsubscribes once alpha's model was asked: the task is running.
    const events = await collect(engine.stream('go', { sessionId: 's1' }).pipe(takeUntil(from(arrived.promise))));
    const start = own(events, 'ToolCallStart')[0]!;
    hang.open();
    const closed = await vi.waitFor(async () => {
      const stored = await store.load('s1');
      // Closed: the call's result, then the assistant message saying the turn did not finish.
      expect(stored.at(-2)?.role).toBe('tool');
      return stored;
    });
    const [task] = await store.listTaskInfos!('s1');
    const text = `${INTERRUPTED_TOOL_RESULT} The task ${task!.taskId} (agent "alpha", "report") was interrupted; resume it with agent_name "alpha" and task_id "${task!.taskId}".`;
    expect(closed.filter((m) => m.role === 'tool')).toEqual([{ role: 'tool', tool_call_id: start.callId, content: text }]);

    f.route({ main: steps(lifecycleTaskReply('alpha', 'finish it', { task_id: task!.taskId })), alpha: (t) => ({ text: `alpha: ${t.prompt}` }) });
    const next = await collect(engine.stream('what happened?', { sessionId: 's1' }));
    expect(f.requestsOf('main').at(-2)!.body.messages!.find((m) => m.role === 'tool')!.content).toBe(text);
    expect(parseTaskResult(own(next, 'ToolCallEnd')[0]!.text)).toMatchObject({ taskId: task!.taskId, status: 'success', content: 'alpha: finish it' });
    await engine.close();
  });
});
