/**
 * A task resumed (`task` with `task_id`) whose process is killed (SIGKILL) mid-child: the next
 * load's repair names it again, so it can be resumed once more. Before, only the call that
 * first started the task was recorded, and the history showed its earlier result: the repair
 * gave the plain interrupted result, and the model started the work anew.
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

describe('a resumed task killed mid-run', () => {
  it('the repaired call names the task, with the call that resumed it', async () => {
    f = await startDelegationFixture();
    const store = new FileSessionStore(f.workspace.dir, { home: f.home });
    const first = f.engine({ sessions: store }, [testAgent('alpha')]);
    f.route({ main: steps(lifecycleTaskReply('alpha', 'write the report', {}, 'report')), alpha: () => ({ text: 'part one' }) });
    const { taskId } = parseTaskResult(own(await collect(first.stream('start', { sessionId: 's1' })), 'ToolCallEnd')[0]!.text);
    await first.close();

    await killedMidTask(f, CHILD, steps(lifecycleTaskReply('alpha', 'finish it', { task_id: taskId }, 'report, part two')));

    const after = new FileSessionStore(f.workspace.dir, { home: f.home });
    const cut = (await after.load('s1')).findLast((m) => m.role === 'assistant')!;
    const callId = cut.role === 'assistant' ? cut.tool_calls![0]!.id : '';
    expect(await after.loadTaskInfo(taskId)).toMatchObject({ callId, description: 'report, part two' });
    const engine = f.engine({ sessions: after }, [testAgent('alpha')]);
    f.route({ main: () => ({ text: 'ok' }) });
    await collect(engine.stream('what happened?', { sessionId: 's1' }));
    const read = f.requestsOf('main').at(-1)!.body.messages!.findLast((m) => m.role === 'tool')!;
    expect(read).toMatchObject({
      tool_call_id: callId,
      content: `${INTERRUPTED_TOOL_RESULT} The task ${taskId} (agent "alpha", "report, part two") was interrupted; resume it with agent_name "alpha" and task_id "${taskId}".`,
    });
    await engine.close();
  }, 90_000);
});
