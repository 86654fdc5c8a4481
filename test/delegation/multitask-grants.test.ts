/**
 * A `multitask` entry whose agent a `task` rule asks about fails closed, pointing the model at
 * `task`, which asks a human. Once the human answered that `task` call "always", the grant
 * covers the agent for the rest of the conversation: a `multitask` naming it must run it too,
 * or the model is sent round in a circle (multitask refused, task granted, multitask refused).
 * A one-time approval grants nothing, and a deny is never lifted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** Runs: `task alpha` (asked, answered `decision`), then a multitask of alpha and beta; answers the multitask's text. */
async function afterTaskAnswered(decision: ApprovalDecision['decision'], rules: readonly { tool: string; action: string; pattern: string }[]): Promise<string> {
  f = await startDelegationFixture({
    main: steps(taskReply('alpha', 'first'), multitaskReply([[1, 'alpha', 'second', 'again'], [2, 'beta', 'third', 'other']]), { text: 'done' }),
    '*': (turn) => ({ text: `${turn.agent} did ${turn.prompt}` }),
  });
  const asked: string[] = [];
  const engine = f.engine(
    {
      permissionRules: rules.map((r) => ({ tool: r.tool, action: r.action as 'ask' | 'deny', pattern: r.pattern })),
      approve: (request) => {
        asked.push(request.toolName);
        return { decision };
      },
    },
    [testAgent('alpha'), testAgent('beta')],
  );
  const events = await collect(engine.stream('go', { sessionId: 'conversation' }));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  expect(asked).toEqual(['task']); // the multitask itself asked nobody
  return own(events, 'ToolCallEnd').find((e) => e.toolName === 'multitask')!.text;
}

const entry = (index: number, status: string): RegExp => new RegExp(`<index>${index}</index>.*?<result_status>${status}</result_status>`);

describe('multitask entries and "always" grants of task', () => {
  it('an entry a rule asks about runs once the conversation granted task on its agent', async () => {
    const text = await afterTaskAnswered('always', [{ tool: 'task', action: 'ask', pattern: 'alpha' }]);
    expect(text).toMatch(entry(1, 'success'));
    expect(text).toContain('alpha did second');
    expect(text).toMatch(entry(2, 'success'));
  });

  it('a one-time approval grants nothing: the entry still fails closed', async () => {
    const text = await afterTaskAnswered('approve', [{ tool: 'task', action: 'ask', pattern: 'alpha' }]);
    expect(text).toMatch(/<index>1<\/index>.*?<result_status>failure<\/result_status>.*?needs approval/);
    expect(text).toMatch(entry(2, 'success'));
  });

  it('a grant on one agent does not cover another the rules ask about', async () => {
    const text = await afterTaskAnswered('always', [{ tool: 'task', action: 'ask', pattern: '*' }]);
    expect(text).toMatch(entry(1, 'success'));
    expect(text).toMatch(/<index>2<\/index>.*?<result_status>failure<\/result_status>.*?delegating to "beta" needs approval/);
  });
});
