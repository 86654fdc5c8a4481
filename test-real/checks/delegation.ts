/**
 * Delegation on real servers: the parent (server A) is forced into `task` or `multitask`; the
 * child agent's model is on a second llama-server (B). Checked: every child event arrives
 * wrapped, between the parent's `ToolCallStart` and `ToolCallEnd`; the model saw
 * `agent_name` as an `enum` of the callable agents; each server got only its agent's
 * requests; the parent's metrics are its own usage plus the child's, as the servers reported.
 * Templates that cannot be forced get a probe that shows why, instead of these checks.
 */
import { describe, expect, it } from 'vitest';
import type { RunEndEvent, TaskWrapEvent, ToolCallEndEvent, ToolCallStartEvent } from '../../src/events/agent-event.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { forcingModel } from '../support/forced-calls.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd } from '../support/real-engine.js';
import type { RecordingProxy } from '../support/recording-proxy.js';
import { useSecondServer, type Rig } from '../support/rig.js';
import { retryParserErrors } from '../support/parser-errors.js';
import type { TemplateProfile } from '../support/templates.js';
import { expectWrappedChildren } from './wrapped-children.js';

type DelegationTool = 'task' | 'multitask';

/** The agent_name schema of the tool the request offered. */
function agentNameSchema(body: Record<string, unknown>, tool: DelegationTool): unknown {
  const tools = (body.tools ?? []) as Array<{ function: { name: string; parameters: { properties: Record<string, { items?: { properties: Record<string, unknown> } } & Record<string, unknown>> } } }>;
  const properties = tools.find((t) => t.function.name === tool)?.function.parameters.properties;
  return tool === 'task' ? properties?.agent_name : properties?.tasks?.items?.properties.agent_name;
}

/** Registers the checks; `dir` holds llama-server (for the second server). */
export function delegationChecks(profile: TemplateProfile, rig: () => Rig, dir: string): void {
  if (!('bias' in profile.forcing)) {
    const why = profile.forcing.impossible;
    it(`no forced tool calls on ${profile.label}, so task, multitask and a run reaching maxSteps while asking for tools are not covered here: ${why}`, async () => {
      // The probe: what this template does with a forced call. If it ever calls, cover it.
      const { proxy, workspace } = rig();
      const engine = realEngine(workspace, { model: llamaModel(proxy.baseURL, { toolChoice: 'required', maxTokens: 64 }), keep: ['task'] });
      await runEvents(engine.stream('Delegate this.'));
      await proxy.settled();
      const [exchange] = proxy.chats;
      expect(exchange?.body.tool_choice).toBe('required');
      expect(exchange?.status, exchange?.raw).toBe(200);
      expect(exchange?.toolCalls, `${profile.label} now makes a forced call: cover delegation with it (test-real/support/templates.ts)`).toBe(0);
    });
    return;
  }

  describe('delegation to a child agent on a second llama-server', () => {
    const second = useSecondServer(dir, profile);

    for (const tool of ['task', 'multitask'] as const) {
      it(`${tool}: wrapped child events between ToolCallStart and ToolCallEnd; metrics = parent + child usage`, () => retryParserErrors(async (watch) => {
        const { proxy, workspace, server } = rig();
        const child = second();
        watch(proxy, child.proxy);
        const model = await forcingModel(profile, server.url, proxy.baseURL, tool);
        const engine = realEngine(workspace, {
          model,
          keep: [tool],
          maxSteps: 2,
          multitaskMaxItems: 3,
          models: { child: llamaModel(child.proxy.baseURL, { maxTokens: 48 }, { logit_bias: profile.stopBias }) },
          // Only `helper` may be called, so the enum the model sees has one name: the child runs on server B.
          permissionRules: [{ tool: 'task', action: 'deny' }, { tool: 'task', pattern: 'helper', action: 'allow', priority: 1 }],
        });
        engine.agents.add(defineAgent({ name: 'helper', description: 'Answers in a few words.', systemPrompt: 'You answer in a few words.', model: 'child', maxSteps: 1 }));
        const events = await runEvents(engine.stream('Ask the helper what the answer is.'));
        await Promise.all([proxy.settled(), child.proxy.settled()]);
        const account = `${describeRun(events)}\nA: ${proxy.chats.map((c) => c.raw.slice(-400)).join('\n')}`;

        expect(agentNameSchema(proxy.chats[0]?.body ?? {}, tool), 'agent_name as the model sees it').toMatchObject({ type: 'string', enum: ['helper'] });
        const starts = events.filter((e): e is ToolCallStartEvent => e.type === 'ToolCallStart');
        expect(starts.length, `the server did not make the forced ${tool} call:\n${account}`).toBeGreaterThan(0);
        expect(starts.every((s) => s.toolName === tool)).toBe(true);
        const wrapped = expectWrappedChildren(events);
        expect(wrapped.every((w) => w.multitask === (tool === 'multitask'))).toBe(true);
        const ends = events.filter((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd');
        for (const end of ends) expect(end.error, account).toBeUndefined();
        if (tool === 'multitask') {
          // A task may leave out its index (Solon's dialect): it is then its place in the list.
          const indexes = (starts[0]?.args as { tasks: Array<{ index?: number }> }).tasks.map((t, i) => t.index ?? i + 1);
          const byNumber = (a: number, b: number): number => a - b;
          expect([...new Set(wrapped.map((w) => w.taskIndex))].sort(byNumber)).toEqual([...indexes].sort(byNumber));
          expect(ends[0]?.text.startsWith('<multitask_results>')).toBe(true);
        }

        const children = childEnds(wrapped);
        expect(children.every((c) => !c.abnormal), account).toBe(true);
        expectUsage(children, [child.proxy], 'the children');
        const end = theRunEnd(events);
        expectUsage([end], [proxy, child.proxy], 'the parent');
        expect(end.metrics.tasks).toBe(children.length);
        expect(child.proxy.chats, 'one request per child, all to server B').toHaveLength(children.length);
        expect(proxy.chats, 'the parent\'s two steps, both to server A').toHaveLength(2);
        // The forcing bias still applies to the tool-less last step: Llama-3.1 then writes `{"{"...`
        // until max_tokens, an honest "length" end.
        if (end.abnormal) expect(end.error, account).toMatch(/finish_reason "length"/);
      }));
    }
  });
}

/** The children's own RunEnds. */
function childEnds(wrapped: readonly TaskWrapEvent[]): RunEndEvent[] {
  return wrapped.map((w) => w.event).filter((e): e is RunEndEvent => e.type === 'RunEnd');
}

/** The token counts of `ends` together equal what the servers behind `proxies` reported together. */
function expectUsage(ends: readonly RunEndEvent[], proxies: readonly RecordingProxy[], who: string): void {
  const sum = (pick: (m: RunEndEvent['metrics']) => number): number => ends.reduce((n, e) => n + pick(e.metrics), 0);
  const reported = proxies.map((p) => p.usageTotal()).reduce((a, b) => ({
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  }));
  const counted = { promptTokens: sum((m) => m.promptTokens), completionTokens: sum((m) => m.completionTokens), totalTokens: sum((m) => m.totalTokens) };
  expect(counted, `${who}' metrics against the servers' usage`).toEqual(reported);
}
