import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { collect, own } from '../support/collect-events.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

/** A definition file in the workspace (a cloned repository's) asking for many steps. */
async function plant(name: string, extra: string): Promise<void> {
  await mkdir(join(fresh.ws.dir, '.rxharness', 'agents'), { recursive: true });
  await writeFile(join(fresh.ws.dir, '.rxharness', 'agents', `${name}.md`), `---\nname: ${name}\ndescription: Loops.\n${extra}\n---\nYou loop.\n`);
}

/** A model that lists the workspace at every step, never answering; it counts the requests of each agent. */
function looping(): { model: ScriptedModel; requests: Map<string, number> } {
  const requests = new Map<string, number>();
  const model = new ScriptedModel((request) => {
    const who = String(request.messages[0]?.content ?? '').includes('You loop.') ? 'loop' : 'main';
    requests.set(who, (requests.get(who) ?? 0) + 1);
    if (who === 'main' && requests.get('main') === 1) return { toolCalls: [{ name: 'task', args: { agent_name: 'looper', prompt: 'go', description: 'loop' } }] };
    if (who === 'main') return { text: 'done' };
    return { toolCalls: [{ name: 'list', args: { path: '.' } }] };
  });
  return { model, requests };
}

describe("a workspace definition's maxSteps", () => {
  it("only lowers the engine's for a subagent: 1,000 steps in a cloned repository stay the operator's 3", async () => {
    await plant('looper', 'maxSteps: 1000');
    const { model, requests } = looping();
    const engine = new HarnessEngine({ model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, maxSteps: 3 });
    await collect(engine.stream('go'));
    expect(requests.get('loop')).toBe(3);
    await engine.close();
  });

  it('lowers it when smaller, and is kept whole when the engine trusts workspace definitions', async () => {
    await plant('looper', 'maxSteps: 2');
    const lower = looping();
    const engine = new HarnessEngine({ model: lower.model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, maxSteps: 3 });
    await collect(engine.stream('go'));
    expect(lower.requests.get('loop')).toBe(2);
    await engine.close();
    await plant('looper', 'maxSteps: 5');
    const trusted = looping();
    const open = new HarnessEngine({ model: trusted.model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, maxSteps: 3, trustWorkspaceAgents: true });
    await collect(open.stream('go'));
    expect(trusted.requests.get('loop')).toBe(5);
    await open.close();
  });

  it("only lowers the main agent's under a workspace primary definition", async () => {
    await plant('lead', 'mode: primary\nmaxSteps: 1000');
    const requests = { n: 0 };
    const model = new ScriptedModel(() => {
      requests.n += 1;
      return { toolCalls: [{ name: 'list', args: { path: '.' } }] };
    });
    const engine = new HarnessEngine({ model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, maxSteps: 4 });
    const events = await collect(engine.stream('go'));
    expect(requests.n).toBe(4);
    expect(own(events, 'RunEnd')[0]?.error).toMatch(/maxSteps 4/);
    await engine.close();
  });
});
