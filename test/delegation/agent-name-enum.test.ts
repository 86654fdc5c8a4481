import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { offlineEnginePerTest, type OfflineEngine } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

type Schema = { properties: Record<string, { enum?: string[]; items?: { properties: Record<string, { enum?: string[] }> } }> };
const schemaOf = (o: OfflineEngine, request: number, tool: string) =>
  o.model.requests[request]!.tools!.find((t) => t.name === tool)!.parameters as JsonObject as unknown as Schema;

describe('agent_name is an enum of the agents the caller may name', () => {
  it('lists visible and hidden agents, not disabled or denied ones, in task and in each multitask entry', async () => {
    const o = await offline(
      { main: () => ({ text: 'ok' }) },
      [testAgent('alpha'), testAgent('shy', { hidden: true }), testAgent('off', { enabled: false }), testAgent('secret')],
      { permissionRules: [{ tool: 'task', action: 'deny', pattern: 'secret' }] },
    );
    await o.engine.call('go');
    const names = schemaOf(o, 0, 'task').properties['agent_name']!.enum!;
    expect(names).toContain('alpha');
    expect(names).toContain('shy');
    expect(names).toContain('explore'); // a built-in
    expect(names).not.toContain('off');
    expect(names).not.toContain('secret');
    expect(schemaOf(o, 0, 'multitask').properties['tasks']!.items!.properties['agent_name']!.enum).toEqual(names);
  });

  it('a name outside the enum still gets the clear unknown-agent failure, for that task only', async () => {
    const o = await offline(
      {
        main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: { tasks: [{ index: 1, agent_name: 'alpha', prompt: 'p', description: 'd' }, { index: 2, agent_name: 'ghost', prompt: 'p', description: 'd' }] } }] }),
        alpha: () => ({ text: 'did it' }),
      },
      [testAgent('alpha')],
    );
    const events = await collect(o.engine.stream('go'));
    const text = own(events, 'ToolCallEnd')[0]!.text;
    expect(text).toContain('<result_status>success</result_status><result_content><![CDATA[did it]]>');
    expect(text).toContain('ERROR: unknown agent "ghost". Available agents:');
  });

  it('an agent made by generate appears in the enum from the next step', async () => {
    const o = await offline(
      {
        main: scriptedSteps(
          { toolCalls: [{ name: 'generate', args: { name: 'fresh', description: 'Fresh.', system_prompt: 'You are fresh.' } }] },
          { toolCalls: [{ name: 'todo', args: { todos: [] } }] },
        ),
      },
      [],
    );
    await o.engine.call('go');
    expect(schemaOf(o, 0, 'task').properties['agent_name']!.enum).not.toContain('fresh');
    expect(schemaOf(o, 1, 'task').properties['agent_name']!.enum).toContain('fresh');
  });
});
