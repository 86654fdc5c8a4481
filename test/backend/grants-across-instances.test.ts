/**
 * "Always" approvals with several processes on one Redis: the store is their truth. An
 * engine reads a conversation's grants at each run's start, so a delete on another engine
 * reaches it; a worker keeps the grants its tasks are given under their conversation in
 * Redis, where the engine's delete removes them, and reads them at each task's start.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits } from './scale-kit.js';

const touch = { toolCalls: [{ name: 'bash', arguments: { command: 'touch granted.txt' } }] };

describe.skipIf(!HAS_REDIS)('"always" approvals across engines and workers on one Redis', () => {
  const scale = useScaleKits();

  it('a conversation deleted on another engine: a new conversation of the id is asked again here', async () => {
    const k = await scale.kit();
    k.fixture.route({ main: steps(touch) });
    const file = join(k.fixture.workspace.dir, 'granted.txt');
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalDecision['decision'] = 'always';
    const a = await k.engine({ approve: (r) => (asked.push(r), { decision: answer }) });
    const b = await k.engine({});
    await a.call('first', { sessionId: 'conv' });
    expect(asked).toHaveLength(1);
    rmSync(file);
    await b.sessions.delete!('conv');
    answer = 'reject';
    await a.call('a new conversation', { sessionId: 'conv' });
    expect(asked).toHaveLength(2);
    expect(existsSync(file)).toBe(false);
  });

  it("a task's \"always\" on a worker is kept under its conversation (not under a run without a sessionId), and goes with its delete", async () => {
    const k = await scale.kit();
    k.fixture.route({ main: steps(taskReply('explorer', 'run it', 'bash')), explorer: steps(touch) });
    const file = join(k.fixture.workspace.dir, 'granted.txt');
    await k.worker();
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalDecision['decision'] = 'always';
    const e = await k.engine({ distributeTasks: true, approve: (r) => (asked.push(r), { decision: answer }) }, [testAgent('explorer')]);
    await e.call('first', { sessionId: 'conv' });
    expect(asked).toHaveLength(1);
    expect(await e.sessions.loadGrants!('conv')).toEqual([{ toolName: 'bash', subject: 'touch granted.txt' }]);
    rmSync(file);
    answer = 'reject';
    await e.call('second turn', { sessionId: 'conv' });
    expect(asked).toHaveLength(1); // the grant holds for the conversation's next task
    expect(existsSync(file)).toBe(true);
    rmSync(file);

    await e.sessions.delete!('conv');
    await e.call('a new conversation', { sessionId: 'conv' });
    expect(asked).toHaveLength(2);
    expect(existsSync(file)).toBe(false);

    // Without a sessionId the run holds no lease: its task's grant is stored nowhere.
    answer = 'always';
    const events = await eventsOf(e.stream('no session'));
    expect(asked).toHaveLength(3);
    const ephemeral = events.find((ev) => ev.type === 'RunStart')!.sessionId;
    expect(await e.sessions.loadGrants!(ephemeral)).toEqual([]);
    expect((await e.sessions.list!()).map((s) => s.sessionId)).not.toContain(ephemeral);
  });
});
