import { describe, expect, it } from 'vitest';
import { lastValueFrom } from 'rxjs';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { taskReply } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { lifecycleTaskReply } from '../support/lifecycle-script.js';
import { TASK_TRANSCRIPT, taskSessionPerTest } from './support/task-session-setup.js';

// A delegated task's session (`task_<uuid>`, seen in run events) is resumed only by the
// conversation that started it, through the task tool: a run of the engine's own API on it
// would read the task's transcript as its history and leave its turn there for the parent.
const startFixture = delegationFixturePerTest();
const scene = taskSessionPerTest();

const REFUSED = /is the session of a delegated task; only the conversation that started it resumes it, through the task tool/;
const stores: [string, (dir: string, home: string) => SessionStore][] = [
  ['memory', () => new MemorySessionStore()],
  ['file', (dir, home) => new FileSessionStore(dir, { home })],
];

describe.each(stores)('a run on a task session (%s store)', (_, make) => {
  it('is refused by call, stream, start and agent(); the parent still resumes the task with its own history only', async () => {
    let taskId = '';
    let childSaw = '';
    const f = await startFixture({
      main: (turn) => {
        if (turn.prompt === 'go') return turn.step === 1 ? taskReply('alpha', 'PARENT-PROMPT', 'job') : { text: 'ok' };
        if (turn.prompt === 'resume') return turn.step === 1 ? lifecycleTaskReply('alpha', 'continue', { task_id: taskId }) : { text: 'resumed' };
        return { text: 'INJECTED-ANSWER' };
      },
      alpha: (_turn, req) => {
        childSaw = JSON.stringify(req.body.messages);
        return { text: 'CHILD-ANSWER' };
      },
    });
    const store = make(f.workspace.dir, f.home);
    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    await engine.call('go', { sessionId: 's1' });
    taskId = engine.tasks.list('s1')[0]!.taskId;
    await expect(engine.call('INJECTED', { sessionId: taskId })).rejects.toThrow(REFUSED);
    await expect(lastValueFrom(engine.stream('INJECTED', { sessionId: taskId }))).rejects.toThrow(TypeError);
    await expect(engine.agent('alpha').call('INJECTED', { sessionId: taskId })).rejects.toThrow(REFUSED);
    expect(() => engine.start('INJECTED', { sessionId: taskId })).toThrow(REFUSED);
    expect(engine.runs.list({ sessionId: taskId })).toEqual([]); // nothing registered
    expect(await store.load(taskId)).toEqual(TASK_TRANSCRIPT);
    expect((await engine.call('resume', { sessionId: 's1' })).text).toBe('resumed');
    expect(childSaw).toContain('CHILD-ANSWER');
    expect(childSaw).toContain('continue');
    expect(childSaw).not.toContain('INJECTED');
  });
});

describe('a run on a task session after a restart (file store)', () => {
  it('is refused from what the store knows; the task transcript is left as it was', async () => {
    const { taskId, store, engine: engine2 } = await scene.restarted();
    await expect(engine2.call('INJECTED', { sessionId: taskId })).rejects.toThrow(REFUSED);
    await expect(engine2.compact(taskId)).rejects.toThrow(REFUSED); // a compaction would rewrite it too
    // Only the store knows it now: start() registers the run, which fails with the refusal.
    const run = engine2.start('INJECTED', { sessionId: taskId });
    await expect(run.result).rejects.toThrow(REFUSED);
    expect(await store.load(taskId)).toHaveLength(2);
    // A conversation of another id still runs.
    expect((await engine2.call('go', { sessionId: 's2' })).abnormal).toBe(false);
  });
});
