import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { collect, own } from '../support/collect-events.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

/** A `mode: primary` definition in the workspace (a cloned repository's), asking for a huge budget. */
async function plantPrimary(budget: number): Promise<void> {
  await mkdir(join(fresh.ws.dir, '.rxharness', 'agents'), { recursive: true });
  await writeFile(join(fresh.ws.dir, '.rxharness', 'agents', 'lead.md'), `---\nname: lead\ndescription: Leads.\nmode: primary\ntoken_budget: ${budget}\n---\nYou lead.\n`);
}

const answer = () => new ScriptedModel(() => ({ text: 'ok', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } }));

describe("a workspace primary definition's tokenBudget", () => {
  it("only narrows the engine's: it cannot raise the operator's limit", async () => {
    await plantPrimary(1_000_000_000);
    const engine = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, tokenBudget: 1_000 });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'Budget').map((e) => e.limit)).toEqual([1_000]);
    await engine.close();
  });

  it("narrows it when smaller, and is the main agent's budget when the engine has none", async () => {
    await plantPrimary(500);
    const capped = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, tokenBudget: 1_000 });
    expect(own(await collect(capped.stream('go')), 'Budget').map((e) => e.limit)).toEqual([500]);
    await capped.close();
    const open = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: fresh.ws.home });
    expect(own(await collect(open.stream('go')), 'Budget').map((e) => e.limit)).toEqual([500]);
    await open.close();
  });

  it('replaces it when the engine trusts workspace definitions', async () => {
    await plantPrimary(5_000);
    const engine = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, tokenBudget: 1_000, trustWorkspaceAgents: true });
    expect(own(await collect(engine.stream('go')), 'Budget').map((e) => e.limit)).toEqual([5_000]);
    await engine.close();
  });
});

describe("a definition run directly (engine.agent(name), start({ agentName })) keeps the engine's tokenBudget", () => {
  const engineWith = (definitionBudget?: number) => {
    const engine = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, tokenBudget: 1_000 });
    engine.agents.add(defineAgent({ name: 'helper', description: 'Helps.', systemPrompt: 'You help.', ...(definitionBudget ? { tokenBudget: definitionBudget } : {}) }));
    return engine;
  };

  it('a definition without a budget of its own runs within the engine\'s', async () => {
    const engine = engineWith();
    expect(own(await collect(engine.agent('helper').stream('go')), 'Budget').map((e) => e.limit)).toEqual([1_000]);
    const started = engine.start('go', { agentName: 'helper' });
    await started.result;
    expect(own(await collect(engine.runs.attach(started.runId).pipe(map((s) => s.event))), 'Budget').map((e) => e.limit)).toEqual([1_000]);
    await engine.close();
  });

  it("a definition's own budget only narrows it, as a delegated task's does", async () => {
    const larger = engineWith(1_000_000_000);
    expect(own(await collect(larger.agent('helper').stream('go')), 'Budget').map((e) => e.limit)).toEqual([1_000]);
    await larger.close();
    const smaller = engineWith(300);
    expect(own(await collect(smaller.agent('helper').stream('go')), 'Budget').map((e) => e.limit)).toEqual([300]);
    await smaller.close();
  });
});
