import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { isTaskWrap } from '../../src/events/guards.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { makeWorkspace } from '../support/tool-context.js';
import { EMPTY_HOME } from '../support/empty-home.js';

describe('when a run of the main agent goes on', () => {
  it('on a synchronous model a delegating run needs no timer: multitask\'s p-limit pool waits only promise ticks', async () => {
    const ws = await makeWorkspace();
    try {
      const model = new ScriptedModel((request) => {
        const main = String(request.messages[0]?.content).includes('main agent');
        if (!main) return { text: `child did ${String(request.messages.at(-1)?.content)}` };
        if (request.messages.at(-1)?.role === 'tool') return { text: 'all done' };
        const tasks = [1, 2, 3].map((index) => ({ index, agent_name: 'helper', prompt: `part ${index}`, description: `part ${index}` }));
        return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
      });
      const engine = new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.home, multitaskMaxTasks: 2 });
      engine.agents.add(defineAgent({ name: 'helper', description: 'Helps.', systemPrompt: 'You help.' }));
      const seen: AgentEvent[] = [];
      let completed = false;
      engine.stream('go').subscribe({ next: (e) => seen.push(e), complete: () => (completed = true) });
      // Synchronous up to the pool, which starts each child on a promise tick (p-limit)...
      expect(completed).toBe(false);
      expect(seen.some((e) => e.type === 'ToolCallStart' && e.toolName === 'multitask')).toBe(true);
      // ...and only promise ticks: the run has ended before the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(completed).toBe(true);
      expect(seen.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'all done' });
      expect(seen.filter((e) => isTaskWrap(e) && e.event.type === 'RunEnd')).toHaveLength(3);
    } finally {
      await ws.cleanup();
    }
  });
});

describe('when a run without delegation goes on', () => {
  it('on a synchronous model it runs within subscribe', () => {
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'at once' }]), homeDir: EMPTY_HOME });
    let completed = false;
    engine.stream('go').subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
  });
});
