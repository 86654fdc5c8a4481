/**
 * A foreground `task` whose process is killed (SIGKILL) mid-child: the next engine's load
 * repairs the parent's call, and the repaired result names the task, so the model can resume
 * it (by `task_id`) instead of starting a fresh one that repeats what the first did.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';
import { killedMidTask } from './killed-mid-task.js';

const CHILD = fileURLToPath(new URL('./interrupted-task-process.ts', import.meta.url));

let f: DelegationFixture;
afterEach(() => f.close());

describe('a foreground task killed mid-run', () => {
  it('the repaired task call names the task id, and a task call with that id resumes it', async () => {
    f = await startDelegationFixture();
    await killedMidTask(f, CHILD, steps(lifecycleTaskReply('alpha', 'write the report', {}, 'report')));

    const store = new FileSessionStore(f.workspace.dir, { home: f.home });
    const [task] = await store.listTaskInfos('s1');
    // The call the killed process saved, with no result: the task info records its id.
    const callId = (await store.load('s1')).flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))[0]!.id;
    expect(task).toMatchObject({ agentName: 'alpha', description: 'report', callId });

    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    f.route({ main: steps(lifecycleTaskReply('alpha', 'finish it', { task_id: task!.taskId })), alpha: (t) => ({ text: `alpha: ${t.prompt}` }) });
    const events = await collect(engine.stream('what happened?', { sessionId: 's1' }));
    const read = f.requestsOf('main').at(-2)!.body.messages!.find((m) => m.role === 'tool')!;
    expect(read.content).toBe(
      `${INTERRUPTED_TOOL_RESULT} The task ${task!.taskId} (agent "alpha", "report") was interrupted; resume it with agent_name "alpha" and task_id "${task!.taskId}".`,
    );
    expect(parseTaskResult(own(events, 'ToolCallEnd')[0]!.text)).toMatchObject({ taskId: task!.taskId, status: 'success', content: 'alpha: finish it' });
    const resumed = f.requestsOf('alpha').at(-1)!.body.messages!;
    expect(resumed.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['write the report', 'finish it']);
    await engine.close();
  }, 90_000);
});
