import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalGrants } from '../../src/agent/approval-grants.js';
import type { TaskWrapEvent } from '../../src/events/agent-event.js';
import { ScriptedModel, type ScriptedReply } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import type { AgentSpec } from '../../src/delegation/delegation-types.js';
import { AgentFactory } from '../../src/delegation/agent-factory.js';
import { delegationTools } from '../../src/delegation/delegation-tools.js';
import { TaskRunner } from '../../src/delegation/task-runner.js';
import { createMultitaskTool } from '../../src/delegation/multitask-tool.js';
import { createTaskTool } from '../../src/delegation/task-tool.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { multitaskArgs, taskArgs } from '../support/delegation-script.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { createToolContext, runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

/** A model for the tree: `deep` (the spec below) and `alpha` (a child). */
function treeModel(deepSteps: readonly ScriptedReply[]) {
  return new ScriptedModel(scriptedRoutes({ deep: scriptedSteps(...deepSteps), alpha: (t) => ({ text: `alpha: ${t.prompt}` }) }));
}

/** The agent factory and task runner of a tree with `alpha`, wired as the engine wires them. */
function treeFor(maxDepth: number, tracker = new TaskTracker()): { factory: AgentFactory; runner: TaskRunner } {
  const agents = new AgentManager({ dirs: [] });
  agents.add(testAgent('alpha'));
  const sessions = new MemorySessionStore();
  const factory: AgentFactory = new AgentFactory({
    agents,
    toolbox: new Map(createBuiltinTools().map((t) => [t.name, t])),
    models: {},
    sessions,
    workspace: fresh.ws.dir,
    approve: undefined,
    grants: new ApprovalGrants(),
    toolTimeoutMs: 60_000,
    maxDepth,
    maxSteps: 5,
    poolSize: 2,
    disabledTools: [],
    tokenBudget: undefined,
    delegationTools: (spec) => delegationTools(spec, { delegation: runner, agents, knownTools: [], workspace: fresh.ws.dir }),
  });
  const runner = new TaskRunner({ factory, agents, sessions, tracker, maxDepth, poolSize: 2, maxItems: 200, maxResultChars: 12_000 });
  return { factory, runner };
}

/** An agent spec holding delegation tools whatever its depth (as a hand-built list might). */
function specAt(depth: number, model: ScriptedModel): AgentSpec {
  return {
    name: 'deep',
    depth,
    model,
    instructions: testAgentPrompt('deep'),
    toolNames: ['read', 'task', 'multitask'],
    policy: new PermissionPolicy(),
    maxSteps: 5,
  };
}

describe('the depth guard (independent of tool narrowing)', () => {
  it('refuses task and multitask from an agent at maxDepth, running nothing', async () => {
    const model = treeModel([]);
    const tracker = new TaskTracker();
    const { runner } = treeFor(1, tracker);
    const spec = specAt(1, model);
    const context = createToolContext({ workspace: fresh.ws.dir });
    const task = await runTool(createTaskTool(spec, runner), taskArgs('alpha', 'hi'), context);
    const multi = await runTool(createMultitaskTool(spec, runner), multitaskArgs([[1, 'alpha', 'hi', 'd']]), context);
    for (const [result, name] of [[task, 'task'], [multi, 'multitask']] as const) {
      expect(result.text).toMatch(new RegExp(`^ERROR: ${name} refused: agent "deep" is at delegation depth 1 and the limit \\(maxDepth\\) is 1`));
      expect(result.error).toBeDefined();
    }
    expect(model.requests).toHaveLength(0);
    expect(context.events).toHaveLength(0);
    expect(tracker.list()).toHaveLength(0);
  });

  it('refuses a delegation call inside a run at maxDepth, and the run goes on', async () => {
    const model = treeModel([{ toolCalls: [{ name: 'task', args: taskArgs('alpha', 'hi') }] }, { text: 'did it myself' }]);
    const { factory } = treeFor(2);
    const events = await collect(factory.build(specAt(2, model)).stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.toolName).toBe('task');
    expect(end.error).toMatch(/task refused: .*depth 2 .*maxDepth\) is 2/);
    expect(events.some((e) => e.type === 'TaskWrap')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'did it myself' });
    // Only the deep agent's two steps reached the model; the child never started.
    expect(model.requests).toHaveLength(2);
  });

  it('lets the same tools delegate one level higher', async () => {
    const model = treeModel([{ toolCalls: [{ name: 'task', args: taskArgs('alpha', 'hi') }] }, { text: 'done' }]);
    const events = await collect(treeFor(2).factory.build(specAt(1, model)).stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.error).toBeUndefined();
    expect(own(events, 'ToolCallEnd')[0]!.text).toContain('<![CDATA[alpha: hi]]>');
    expect(events.some((e) => e.type === 'TaskWrap')).toBe(true);
  });
});

describe('TaskRunner.runTask', () => {
  const request = { agentName: 'alpha', prompt: 'hi', description: 'greet', index: 1, multitask: false };

  it('forwards wrapped child events through emit while the parent streams', async () => {
    const model = treeModel([]);
    const context = createToolContext({ workspace: fresh.ws.dir, runId: 'run-parent' });
    const [result] = await lastValueFrom(treeFor(1).runner.runTask(specAt(0, model), request, context).pipe(toArray()));
    expect(result).toMatchObject({ status: 'success', content: 'alpha: hi', agentName: 'alpha', description: 'greet' });
    const wrapped = context.events as TaskWrapEvent[];
    expect(wrapped.map((w) => w.event.type)[0]).toBe('RunStart');
    expect(wrapped.at(-1)!.event.type).toBe('RunEnd');
    expect(wrapped.every((w) => w.type === 'TaskWrap' && w.parentRunId === 'run-parent' && w.taskId === result!.taskId)).toBe(true);
    expect(context.metrics).toHaveLength(1);
    expect(context.metrics[0]!.tasks).toBe(1);
  });

  it('forwards nothing when the parent is not streamed, and still runs the child', async () => {
    const model = treeModel([]);
    const context = createToolContext({ workspace: fresh.ws.dir, streaming: false });
    const result = await lastValueFrom(treeFor(1).runner.runTask(specAt(0, model), request, context));
    expect(result).toMatchObject({ status: 'success', content: 'alpha: hi' });
    expect(context.events).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
    expect(context.metrics[0]!.tasks).toBe(1);
  });
});
