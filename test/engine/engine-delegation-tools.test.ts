import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import type { FakeRequestTool } from '../support/fake-openai-server.js';
import { steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const describedBy = (tools: readonly FakeRequestTool[] | undefined, name: string): string =>
  tools?.find((t) => t.function?.name === name)?.function?.description ?? '';

const AGENTS = [testAgent('alpha'), testAgent('shy', { hidden: true }), testAgent('off', { enabled: false })];

describe('the delegation tools the main agent sees', () => {
  it('list the visible agents and the pool size, in the tools and in the system prompt', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'ok' }) });
    await f.engine({ multitaskMaxTasks: 3 }, AGENTS).call('hi');
    const [request] = f.server.requests;
    const task = describedBy(request!.body.tools, 'task');
    const multitask = describedBy(request!.body.tools, 'multitask');
    const system = turnOf(request!).system;
    for (const text of [task, multitask, system]) {
      expect(text).toContain('- alpha: Test agent alpha.');
      expect(text).toMatch(/- explore: /);
      expect(text).not.toContain('shy');
      expect(text).not.toContain('off:');
      expect(text).not.toContain('git-summary');
    }
    expect(multitask).toContain('at most 3 run at the same time');
    expect(system).toContain('# Delegating to subagents');
    expect(system).toContain('3 at a time');
  });

  it('say all tasks run at once when the pool is unlimited', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'ok' }) });
    await f.engine({ multitaskMaxTasks: 0 }).call('hi');
    expect(describedBy(f.server.requests[0]!.body.tools, 'multitask')).toContain('all run at the same time');
  });

  it('delegate to a hidden agent named explicitly', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('shy', 'psst')), shy: (t) => ({ text: `shy: ${t.prompt}` }) });
    const events = await collect(f.engine({}, AGENTS).stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toContain('<result_status>success</result_status><result_content><![CDATA[shy: psst]]>');
  });

  it('refuse a disabled agent, saying so', async () => {
    f = await startDelegationFixture({ main: steps(taskReply('off', 'x')) });
    const events = await collect(f.engine({}, AGENTS).stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toMatch(/<!\[CDATA\[ERROR: agent "off" is disabled\. Available agents: .*alpha/);
  });

  it.each([
    ['subagentEnabled: false', { subagentEnabled: false }],
    ['maxDepth: 0', { maxDepth: 0 }],
  ])('are absent with %s', async (_name, options) => {
    f = await startDelegationFixture({ main: () => ({ text: 'ok' }) });
    await f.engine(options).call('hi');
    const turn = turnOf(f.server.requests[0]!);
    expect(turn.toolNames).toEqual(['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo']);
    expect(turn.system).not.toContain('# Delegating to subagents');
  });

  it('can be disabled one by one', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'ok' }) });
    await f.engine({ disabledTools: ['multitask'] }).call('hi');
    const names = turnOf(f.server.requests[0]!).toolNames;
    expect(names).toContain('task');
    expect(names).not.toContain('multitask');
  });
});
