import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_STEP_NOTE } from '../../src/agent/reason-step.js';
import { DELEGATION_TOOL_NAMES } from '../../src/subagent/delegation-tool-names.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { MAIN_MODEL, startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';

const BUILTIN = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo'];
/** What a delegating agent holds: the built-ins, then task, multitask and generate. */
const DELEGATING = [...BUILTIN, ...DELEGATION_TOOL_NAMES];

let f: DelegationFixture;
afterEach(() => f.close());

const answer = () => ({ text: 'ok' });

/** Runs one multitask with a task per agent and returns the tool names each child was offered. */
async function toolsSeen(agents: ReturnType<typeof testAgent>[], options: Parameters<DelegationFixture['engine']>[0] = {}) {
  f = await startDelegationFixture({
    main: steps(multitaskReply(agents.map((a, i) => [i + 1, a.name, 'go', a.name] as const))),
    '*': answer,
  });
  await collect(f.engine({ multitaskMaxTasks: 0, ...options }, agents).stream('fan out'));
  const seen: Record<string, readonly string[]> = { main: turnOf(f.requestsOf('main')[0]!).toolNames };
  for (const a of agents) seen[a.name] = turnOf(f.requestsOf(a.name)[0]!).toolNames;
  return seen;
}

describe('child tools, as the server sees them', () => {
  it('narrows each definition against the parent at maxDepth 1', async () => {
    const seen = await toolsSeen([
      testAgent('listed', { tools: ['grep', 'read', 'fly'] }),
      testAgent('star', { tools: '*' }),
      testAgent('open'),
      testAgent('empty', { tools: [] }),
      testAgent('nobash', { disallowedTools: ['bash', 'todo'] }),
      testAgent('wantstask', { tools: ['task', 'multitask', 'generate', 'read'] }),
    ]);
    expect(seen.main).toEqual(DELEGATING);
    expect(seen.listed).toEqual(['read', 'grep']);
    expect(seen.star).toEqual(BUILTIN);
    expect(seen.open).toEqual(BUILTIN);
    expect(seen.empty).toEqual(BUILTIN);
    expect(seen.nobash).toEqual(['read', 'write', 'edit', 'list', 'glob', 'grep']);
    expect(seen.wantstask).toEqual(['read']);
  });

  it('never gives a child a tool the engine disabled for its parent', async () => {
    const seen = await toolsSeen([testAgent('writer', { tools: ['read', 'write'] }), testAgent('star', { tools: '*' })], {
      disabledTools: ['write', 'bash'],
    });
    expect(seen.main).not.toContain('write');
    expect(seen.writer).toEqual(['read']);
    expect(seen.star).toEqual(['read', 'edit', 'list', 'glob', 'grep', 'todo']);
  });

  it('keeps delegation tools for children below maxDepth', async () => {
    const seen = await toolsSeen([testAgent('star', { tools: '*' }), testAgent('reader', { tools: ['read', 'task'] })], { maxDepth: 2 });
    expect(seen.star).toEqual(DELEGATING);
    expect(seen.reader).toEqual(['read', 'task']);
    // A delegating child is told how to delegate; its system prompt lists the agents.
    expect(turnOf(f.requestsOf('star')[0]!).system).toContain('# Delegating to subagents');
  });
});

describe('child model and steps', () => {
  it('runs a child on the model its definition names, the others on the parent model', async () => {
    f = await startDelegationFixture({
      main: steps(multitaskReply([[1, 'quick', 'a', 'q'], [2, 'plain', 'b', 'p']])),
      '*': answer,
    });
    const engine = f.engine({ models: { fast: f.model('fast-model') } }, [testAgent('quick', { model: 'fast' }), testAgent('plain')]);
    await collect(engine.stream('go'));
    expect(f.requestsOf('quick').map((r) => r.body.model)).toEqual(['fast-model']);
    expect(f.requestsOf('plain').map((r) => r.body.model)).toEqual([MAIN_MODEL]);
    expect(f.requestsOf('main').every((r) => r.body.model === MAIN_MODEL)).toBe(true);
  });

  it('fails the task when the definition names a model the engine does not have', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('lost', 'a')) });
    const engine = f.engine({ models: { fast: f.model('fast-model') } }, [testAgent('lost', { model: 'nonexistent' })]);
    const events = await collect(engine.stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.text).toContain('<result_status>failure</result_status>');
    expect(end.text).toMatch(/ERROR: .*"nonexistent".*models: fast/);
    expect(f.requestsOf('lost')).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  });

  it("limits a child to its definition's maxSteps, the last step without tools", async () => {
    f = await startDelegationFixture({
      main: steps(taskReply('brief', 'look around')),
      brief: (turn) => (turn.toolNames.length > 0 ? { toolCalls: [{ name: 'list', arguments: {} }] } : { text: 'summary' }),
    });
    const events = await collect(f.engine({ maxSteps: 30 }, [testAgent('brief', { maxSteps: 2 })]).stream('go'));
    const requests = f.requestsOf('brief');
    expect(requests).toHaveLength(2);
    expect(turnOf(requests[0]!).toolNames.length).toBeGreaterThan(0);
    expect(requests[1]!.body.tools).toBeUndefined();
    expect(String(requests[1]!.body.messages?.at(-1)?.content).endsWith(`\n\n[${FINAL_STEP_NOTE}]`)).toBe(true);
    expect(requests[1]!.body.messages?.slice(1).some((m) => m.role === 'system')).toBe(false);
    expect(own(events, 'ToolCallEnd')[0]!.text).toContain('<![CDATA[summary]]>');
  });

  describe("a child without maxSteps gets the engine's, never its parent's", () => {
    /** Lists the workspace until its fifth step, then answers: it needs five steps. */
    const worker = (turn: ReturnType<typeof turnOf>) =>
      turn.step < 5 && turn.toolNames.includes('list') ? { toolCalls: [{ name: 'list', arguments: {} }] } : { text: `done at step ${turn.step}` };

    it('a grandchild under a definition with maxSteps 2', async () => {
      f = await startDelegationFixture({ main: steps(taskReply('lead', 'delegate')), lead: steps(taskReply('worker', 'work')), worker });
      await collect(f.engine({ maxDepth: 2, maxSteps: 30 }, [testAgent('lead', { maxSteps: 2 }), testAgent('worker')]).stream('go'));
      expect(f.requestsOf('worker')).toHaveLength(5);
    });

    it('a child of a primary definition with maxSteps 2', async () => {
      f = await startDelegationFixture({ boss: steps(taskReply('worker', 'work')), worker });
      await collect(f.engine({ maxSteps: 30 }, [testAgent('boss', { mode: 'primary', maxSteps: 2 }), testAgent('worker')]).stream('go'));
      expect(f.requestsOf('boss')).toHaveLength(2);
      expect(f.requestsOf('worker')).toHaveLength(5);
    });
  });

  it('with maxSteps 1 the only step of the child has no tools', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('once', 'answer now')), once: answer });
    await collect(f.engine({}, [testAgent('once', { maxSteps: 1 })]).stream('go'));
    expect(f.requestsOf('once')).toHaveLength(1);
    expect(f.requestsOf('once')[0]!.body.tools).toBeUndefined();
  });
});
