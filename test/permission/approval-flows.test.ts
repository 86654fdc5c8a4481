import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../../src/model/scripted-model.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { collect, own } from '../support/collect-events.js';
import type { Turn } from '../support/agent-turns.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { callTrail, lastToolMessages, makeSandbox, recordApprovals, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const bash = (command: string): ScriptedReply => ({ toolCalls: [{ name: 'bash', args: { command } }] });
const ASKED = ['main:ToolCallStart', 'main:HITLPending', 'main:HITLDecided', 'main:ToolCallEnd'];
/** Proves whether the command ran: it leaves a file behind. */
const MARK = 'printf ran > ran.txt';

/** The main agent runs `commands` one per step, then answers with the last tool result. */
async function mainRunning(commands: readonly string[], approve?: (request: ApprovalRequest) => unknown) {
  sandbox = await makeSandbox();
  const human = approve ? recordApprovals(approve) : undefined;
  const { engine, model } = await sandboxEngine(
    sandbox,
    { main: scriptedSteps(...commands.map(bash)) },
    [],
    human ? { approve: human.approve } : {},
  );
  return { engine, model, human, ran: () => existsSync(join(sandbox.dir, 'ran.txt')) };
}

describe('approval of an ask (bash asks by default)', () => {
  it('approve: events in order, the request says who asks for what, the tool runs', async () => {
    const { engine, model, human } = await mainRunning(['echo hi'], () => ({ decision: 'approve' }));
    const events = await collect(engine.stream('say hi', { sessionId: 'ses-approve' }));

    expect(callTrail(events, 'bash')).toEqual(ASKED);
    const start = own(events, 'ToolCallStart')[0]!;
    const reason = 'bash asks for approval by default';
    expect(human!.requests).toEqual([
      {
        runId: own(events, 'RunStart')[0]!.runId,
        sessionId: 'ses-approve',
        approvalId: own(events, 'HITLPending')[0]!.approvalId,
        callId: start.callId,
        toolName: 'bash',
        args: { command: 'echo hi' },
        reason,
        agentName: 'main',
        rootRunId: own(events, 'RunStart')[0]!.runId, // the main agent's run is the top of its tree
      },
    ]);
    expect(own(events, 'HITLPending')[0]).toMatchObject({ approvalId: expect.stringMatching(/^approval_[0-9a-f-]{36}$/), callId: start.callId, toolName: 'bash', args: { command: 'echo hi' }, reason });
    expect(own(events, 'HITLDecided')[0]).toEqual({
      type: 'HITLDecided', runId: start.runId, agentName: 'main', approvalId: own(events, 'HITLPending')[0]!.approvalId, callId: start.callId, toolName: 'bash', decision: 'approve',
    });
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.error).toBeUndefined();
    expect(end.text).toMatch(/^hi\b/);
    expect(lastToolMessages(model.requests, 'main')).toEqual([end.text]);
    expect(human!.signals[0]).toBeInstanceOf(AbortSignal);
  });

  it('reject with a comment: the tool does not run, and the model reads the comment', async () => {
    const { engine, model, human, ran } = await mainRunning([MARK], () => ({ decision: 'reject', comment: 'not on a Friday' }));
    const events = await collect(engine.stream('mark it'));

    expect(ran()).toBe(false);
    expect(callTrail(events, 'bash')).toEqual(ASKED);
    expect(own(events, 'HITLDecided')[0]).toMatchObject({ decision: 'reject', comment: 'not on a Friday' });
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.error).toBe('The bash call was rejected: not on a Friday. Do not retry it unchanged.');
    expect(lastToolMessages(model.requests, 'main')).toEqual([`ERROR: ${end.error}`]);
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false, text: `final: ERROR: ${end.error}` });
    expect(human!.requests).toHaveLength(1);
  });

  it('always: the same call in the same session is not asked again; another command or session still asks', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals((r) => ({ decision: (r.args as { command: string }).command === 'echo hi' ? 'always' : 'approve' }));
    // The first run repeats `echo hi`, then tries `echo bye`; later runs only say hi once.
    const main = (turn: Turn): ScriptedReply =>
      turn.prompt === 'first' ? scriptedSteps(bash('echo hi'), bash('echo hi'), bash('echo bye'))(turn) : scriptedSteps(bash('echo hi'))(turn);
    const { engine } = await sandboxEngine(sandbox, { main }, [], { approve: human.approve });

    const first = await collect(engine.stream('first', { sessionId: 's1' }));
    const starts = own(first, 'ToolCallStart');
    expect(own(first, 'HITLPending').map((e) => e.callId)).toEqual([starts[0]!.callId, starts[2]!.callId]);
    expect(own(first, 'HITLDecided').map((e) => e.decision)).toEqual(['approve', 'approve']);
    expect(own(first, 'ToolCallEnd').map((e) => [e.text.split('\n')[0], e.error])).toEqual([
      ['hi', undefined],
      ['hi', undefined],
      ['bye', undefined],
    ]);
    expect(human.requests.map((r) => (r.args as { command: string }).command)).toEqual(['echo hi', 'echo bye']);

    const again = await collect(engine.stream('again', { sessionId: 's1' }));
    expect(callTrail(again, 'bash')).toEqual(['main:ToolCallStart', 'main:ToolCallEnd']);
    expect(own(again, 'ToolCallEnd')[0]!.text).toMatch(/^hi\b/);
    expect(human.requests).toHaveLength(2);

    const other = await collect(engine.stream('again', { sessionId: 's2' }));
    expect(callTrail(other, 'bash')).toEqual(ASKED);
    expect(human.requests.at(-1)).toMatchObject({ sessionId: 's2', args: { command: 'echo hi' } });
  });
});

describe('fail-closed approvals: rejected, reported, and the run goes on', () => {
  it('no handler: rejected without asking anyone', async () => {
    const { engine, model, ran } = await mainRunning([MARK]);
    const events = await collect(engine.stream('mark it'));

    expect(ran()).toBe(false);
    expect(callTrail(events, 'bash')).toEqual(ASKED);
    const comment = 'no approval handler is configured (fail-closed)';
    expect(own(events, 'HITLDecided')[0]).toMatchObject({ decision: 'reject', comment });
    expect(own(events, 'ToolCallEnd')[0]!.error).toBe(`The bash call was rejected: ${comment}. Do not retry it unchanged.`);
    expect(lastToolMessages(model.requests, 'main')[0]).toContain(comment);
    expect(own(events, 'RunEnd')[0]!.abnormal).toBe(false);
  });

  const broken: [string, () => unknown, string][] = [
    ['throws', () => { throw new Error('handler exploded'); }, 'the approval handler failed: handler exploded (fail-closed)'],
    ['rejects its promise', () => Promise.reject(new Error('network down')), 'the approval handler failed: network down (fail-closed)'],
    ['answers an unknown decision', () => ({ decision: 'yes' }), 'the approval handler answered {"decision":"yes"}, not a decision (fail-closed)'],
    ['answers nothing', () => undefined, 'the approval handler answered undefined, not a decision (fail-closed)'],
    ['answers a string', () => Promise.resolve('approve'), 'the approval handler answered "approve", not a decision (fail-closed)'],
    [
      'answers a comment that is not text',
      () => ({ decision: 'approve', comment: 42 }),
      'the approval handler answered {"decision":"approve","comment":42}, not a decision (fail-closed)',
    ],
  ];
  it.each(broken)('a handler that %s: rejected with a clear comment', async (_label, answer, comment) => {
    const { engine, model, ran, human } = await mainRunning([MARK], answer);
    const events = await collect(engine.stream('mark it'));

    expect(ran()).toBe(false);
    expect(human!.requests).toHaveLength(1);
    expect(callTrail(events, 'bash')).toEqual(ASKED);
    expect(own(events, 'HITLDecided')[0]).toMatchObject({ decision: 'reject', comment });
    expect(lastToolMessages(model.requests, 'main')[0]).toBe(`ERROR: The bash call was rejected: ${comment}. Do not retry it unchanged.`);
    expect(own(events, 'RunEnd')[0]!.abnormal).toBe(false);
  });
});
