import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrapEvent } from '../../src/events/operators/unwrap-task-events.js';
import type { ApprovalDecision } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskArgs, taskReply } from '../support/delegation-script.js';
import { settled } from '../support/lifecycle-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { callTrail, deepEvents, makeSandbox, recordApprovals, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

let sandbox: Sandbox | undefined;
let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  await fixture?.close();
  sandbox = fixture = undefined;
});

const MARK = 'printf ran > ran.txt';
const runsBash = (command: string) => scriptedSteps({ toolCalls: [{ name: 'bash', args: { command } }] });

describe('approvals asked by a delegated child', () => {
  it('a foreground child asks the same handler, naming its task and agent; its HITL events arrive wrapped', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const { engine } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('worker', 'say hi') }] }), worker: runsBash('echo child') },
      [testAgent('worker')],
      { approve: human.approve },
    );

    const events = await collect(engine.stream('delegate', { sessionId: 'ses-main' }));

    const childStart = wraps(events).find((w) => w.event.type === 'RunStart')!;
    const childCall = deepEvents(events, 'ToolCallStart').find((e) => e.toolName === 'bash')!;
    expect(human.requests).toEqual([
      {
        runId: childStart.runId,
        sessionId: childStart.taskId, // a child runs in its own session, named by its task id
        approvalId: deepEvents(events, 'HITLPending')[0]!.approvalId, // as in the event the page shows
        callId: childCall.callId,
        toolName: 'bash',
        args: { command: 'echo child' },
        reason: 'bash asks for approval by default',
        agentName: 'worker',
        taskId: childStart.taskId,
        taskLabel: 'worker run worker', // as the live tree names the task: agent, description
        rootRunId: own(events, 'RunStart')[0]!.runId, // the main agent's run: where a started run's approvals are answered
      },
    ]);
    expect(callTrail(events, 'bash')).toEqual(['>worker:ToolCallStart', '>worker:HITLPending', '>worker:HITLDecided', '>worker:ToolCallEnd']);
    // Inside the parent's task call.
    expect(callTrail(events, 'task')).toEqual(['main:ToolCallStart', 'main:ToolCallEnd']);
    const at = (type: string, tool: string) => events.findIndex((e) => { const u = unwrapEvent(e).event; return u.type === type && 'toolName' in u && u.toolName === tool; });
    expect(at('ToolCallStart', 'task')).toBeLessThan(at('HITLPending', 'bash'));
    expect(at('ToolCallEnd', 'bash')).toBeLessThan(at('ToolCallEnd', 'task'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toContain('final: child');
  });

  it('"always" given to a child holds for the whole conversation: the main agent is not asked again', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'always' }));
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps(
          { toolCalls: [{ name: 'task', args: taskArgs('worker', 'say hi') }] },
          { toolCalls: [{ name: 'bash', args: { command: 'echo child' } }] },
        ),
        worker: runsBash('echo child'),
      },
      [testAgent('worker')],
      { approve: human.approve },
    );
    const events = await collect(engine.stream('delegate', { sessionId: 'ses-main' }));
    expect(callTrail(events, 'bash')).toEqual([
      '>worker:ToolCallStart', '>worker:HITLPending', '>worker:HITLDecided', '>worker:ToolCallEnd',
      'main:ToolCallStart', 'main:ToolCallEnd',
    ]);
    expect(human.requests).toHaveLength(1);
  });

  it('under call() nothing is streamed, but a child still asks the same handler and the answer holds', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'reject', comment: 'no' }));
    const { engine } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('worker', 'mark it') }] }), worker: runsBash(MARK) },
      [testAgent('worker')],
      { approve: human.approve },
    );
    const result = await engine.call('delegate');
    expect(human.requests).toMatchObject([{ agentName: 'worker', toolName: 'bash', taskId: expect.stringMatching(/^task_/), taskLabel: 'worker run worker' }]);
    expect(existsSync(join(sandbox.dir, 'ran.txt'))).toBe(false);
    expect(result.text).toContain('The bash call was rejected: no.');
  });

  it('a background child is rejected without calling the handler; the tool never runs', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: { ...taskArgs('worker', 'mark it'), background: true } }] }),
        worker: runsBash(MARK),
      },
      [testAgent('worker')],
      { approve: human.approve },
    );

    const events = await collect(engine.stream('delegate'));
    const [task] = engine.tasks.list();
    const info = await settled(engine.tasks, task!.taskId);

    expect(human.requests).toEqual([]);
    expect(existsSync(join(sandbox.dir, 'ran.txt'))).toBe(false);
    expect(deepEvents(events, 'HITLPending')).toEqual([]); // nothing of a background child is streamed
    const log = engine.tasks.events(task!.taskId);
    const comment = 'a background task cannot ask for approval (fail-closed)';
    expect(callTrail(log, 'bash')).toEqual(['worker:ToolCallStart', 'worker:HITLPending', 'worker:HITLDecided', 'worker:ToolCallEnd']);
    expect(own(log, 'HITLDecided')[0]).toMatchObject({ decision: 'reject', comment });
    expect(own(log, 'ToolCallEnd')[0]!.error).toContain(comment);
    expect(info).toMatchObject({ state: 'done', result: expect.stringContaining(comment) });
  });

  it('a foreground grandchild of a background child is still background: rejected, handler never called', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: { ...taskArgs('mid', 'go on'), background: true } }] }),
        mid: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('leaf', 'mark it') }] }),
        leaf: runsBash(MARK),
      },
      [testAgent('mid'), testAgent('leaf')],
      { approve: human.approve, maxDepth: 2 },
    );

    await collect(engine.stream('delegate'));
    const mid = engine.tasks.list().find((t) => t.agentName === 'mid')!;
    const info = await settled(engine.tasks, mid.taskId);

    expect(human.requests).toEqual([]);
    expect(existsSync(join(sandbox.dir, 'ran.txt'))).toBe(false);
    expect(info.result).toContain('a background task cannot ask for approval (fail-closed)');
    const decided = deepEvents(engine.tasks.events(mid.taskId), 'HITLDecided');
    expect(decided).toMatchObject([{ agentName: 'leaf', decision: 'reject' }]);
  });
});

describe('a depth-2 ask through the real OpenAI client (the case other harnesses hang on)', () => {
  async function nested(answer: (n: number) => ApprovalDecision) {
    fixture = await startDelegationFixture({
      main: steps(taskReply('mid', 'ask your helper', 'outer')),
      mid: steps(taskReply('leaf', 'run the command', 'inner')),
      leaf: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo deep' } }] }),
    });
    // Answers asynchronously, as a human would.
    const human = recordApprovals((r) => new Promise((resolve) => setImmediate(() => resolve(answer(human.requests.indexOf(r))))));
    const engine = fixture.engine({ maxDepth: 2, approve: human.approve }, [testAgent('mid'), testAgent('leaf')]);
    const events = await collect(engine.stream('go'));
    return { events, human };
  }

  it('approve: the grandchild asks the same handler, its HITL events arrive wrapped twice in order, the run finishes', async () => {
    const { events, human } = await nested(() => ({ decision: 'approve' }));

    expect(callTrail(events, 'bash')).toEqual(['>>leaf:ToolCallStart', '>>leaf:HITLPending', '>>leaf:HITLDecided', '>>leaf:ToolCallEnd']);
    const pending = events.map(unwrapEvent).find((u) => u.event.type === 'HITLPending')!;
    const [outer, inner] = pending.path;
    expect(outer).toMatchObject({ taskAgentName: 'mid', taskDescription: 'outer', parentRunId: events[0]!.runId });
    expect(inner).toMatchObject({ taskAgentName: 'leaf', taskDescription: 'inner', parentRunId: outer!.runId });
    expect(human.requests).toHaveLength(1);
    expect(human.requests[0]).toMatchObject({
      agentName: 'leaf',
      taskId: inner!.taskId,
      runId: inner!.runId,
      sessionId: inner!.taskId,
      toolName: 'bash',
      args: { command: 'echo deep' },
    });
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    expect(own(events, 'RunEnd')).toHaveLength(1);
    expect(end.type === 'RunEnd' && end.text).toContain('final: deep');
  });

  it('reject with a comment: the grandchild model reads it, and the run still finishes', async () => {
    const { events } = await nested(() => ({ decision: 'reject', comment: 'ask the owner first' }));

    const leafEnd = deepEvents(events, 'ToolCallEnd').find((e) => e.toolName === 'bash')!;
    expect(leafEnd.error).toBe('The bash call was rejected: ask the owner first. Do not retry it unchanged.');
    const leafSecond = fixture!.requestsOf('leaf')[1]!;
    const toolMessage = leafSecond.body.messages!.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toBe(`ERROR: ${leafEnd.error}`);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
  });
});
