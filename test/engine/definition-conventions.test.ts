import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { readTurn, testAgentPrompt, type Turn } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedRoutes, scriptedSteps, type ScriptedRoute } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// Definition files written for other frameworks, run end to end: the engine discovers them
// from a real workspace and a ScriptedModel plays the main agent and its children.

let workspace: TestWorkspace | undefined;
let home: string | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  if (home) await rm(home, { recursive: true, force: true });
  workspace = home = undefined;
});

/** A workspace holding `agents` (file name → front-matter lines; the body is a test agent's prompt), and an engine on it. */
async function engineWith(agents: Record<string, string>, routes: Record<string, ScriptedRoute>) {
  workspace = await makeWorkspace();
  home = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-home-')));
  for (const [name, front] of Object.entries(agents)) {
    await workspace.file(`.rxharness/agents/${name}.md`, `---\nname: ${name}\ndescription: The ${name} agent.\n${front}---\n${testAgentPrompt(name)}\n`);
  }
  const model = new ScriptedModel(scriptedRoutes(routes));
  const engine = new HarnessEngine({ model, workspace: workspace.dir, homeDir: home });
  /** The turns one agent's requests made, in order. */
  const turnsOf = (agent: string): Turn[] =>
    model.requests.map((r) => readTurn(r.messages, (r.tools ?? []).map((t) => t.name))).filter((t) => t.agent === agent);
  return { engine, model, turnsOf };
}

const delegateTo = (agent: string) => scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs(agent, 'do your part') }] });

describe('definition conventions, end to end', () => {
  it('tools: pi narrows the child to read, write, edit and bash (Solon)', async () => {
    const { engine, turnsOf } = await engineWith({ coder: 'tools: pi\n' }, { main: delegateTo('coder'), coder: () => ({ text: 'coded' }) });
    expect((await engine.call('go')).text).toContain('<result_status>success</result_status>');
    expect([...turnsOf('coder')[0]!.toolNames].sort()).toEqual(['bash', 'edit', 'read', 'write']);
    expect(turnsOf('main')[0]!.toolNames).toEqual(expect.arrayContaining(['list', 'glob', 'grep', 'todo']));
  });

  it('max_turns: 2 limits the child to two steps, the last without tools (harness9)', async () => {
    const { engine, turnsOf } = await engineWith(
      { looper: 'max_turns: 2\ndisallowed_tools: bash\n' },
      {
        main: delegateTo('looper'),
        // Asks for a tool whenever it may: only the step limit makes it answer.
        looper: (turn) => (turn.toolNames.length > 0 ? { toolCalls: [{ name: 'list', args: { path: '.' } }] } : { text: `answered at step ${turn.step}` }),
      },
    );
    const result = await engine.call('go');
    expect(result.text).toContain('answered at step 2');
    const turns = turnsOf('looper');
    expect(turns.map((t) => t.step)).toEqual([1, 2]);
    expect(turns[0]!.toolNames).toContain('list');
    expect(turns[0]!.toolNames).not.toContain('bash');
    expect(turns[1]!.toolNames).toEqual([]);
  });

  it('a workspace explore.md without override leaves the built-in explore in place, with a diagnostic', async () => {
    const builtinExplore: ScriptedRoute = (turn) => ({ text: `built-in answered: ${turn.system.split('\n')[0]}` });
    const { engine, turnsOf } = await engineWith({ explore: 'tools: [read]\n' }, { main: delegateTo('explore'), '*': builtinExplore });
    expect((await engine.call('go')).text).toContain('built-in answered: You are a codebase exploration specialist.');
    expect(turnsOf('explore')).toEqual([]);
    expect(await engine.agents.diagnostics()).toContainEqual({
      file: join(workspace!.dir, '.rxharness', 'agents', 'explore.md'),
      reason: expect.stringMatching(/^agent "explore" is a built-in agent; this file is ignored\. Add "override: true"/),
    });
  });

  it('with override: true the workspace explore.md replaces the built-in', async () => {
    const { engine, turnsOf } = await engineWith({ explore: 'override: true\ntools: [read]\n' }, { main: delegateTo('explore'), explore: () => ({ text: 'the workspace explore' }) });
    expect((await engine.call('go')).text).toContain('the workspace explore');
    expect(turnsOf('explore')[0]!.toolNames).toEqual(['read']);
    expect(await engine.agents.diagnostics()).toContainEqual({
      file: join(workspace!.dir, '.rxharness', 'agents', 'explore.md'),
      reason: 'replaces the built-in agent "explore" (override: true)',
    });
  });

  it('a mode: primary definition is the primary, not offered to task and not runnable by it', async () => {
    // Routed under both names: when the engine adopts the primary's prompt for its main
    // agent, the main agent's requests carry "You are lead..." and must play the same script.
    const main = delegateTo('lead');
    const { engine, model } = await engineWith({ lead: 'mode: primary\n', helper: '' }, { main, lead: main });
    expect(engine.agents.primary()?.name).toBe('lead');
    const result = await engine.call('go');
    expect(result.text).toContain('<result_status>failure</result_status>');
    expect(result.text).toContain('ERROR: unknown agent "lead"');
    const first = model.requests[0]!;
    const task = first.tools?.find((t) => t.name === 'task');
    expect(task?.description).toContain('- helper: The helper agent.');
    expect(task?.description).not.toContain('- lead:');
    expect(JSON.stringify(task?.parameters)).not.toContain('"lead"');
    expect((await engine.agents.list()).map((a) => a.name)).not.toContain('lead');
  });

  it('the primary definition becomes the main agent: its prompt, narrowed tools, steps; still named main', async () => {
    const { engine, model } = await engineWith({ lead: 'mode: primary\ntools: [read, task]\nmaxSteps: 3\n' }, { lead: () => ({ text: 'lead here' }) });
    const events: string[] = [];
    const result = await new Promise<string>((resolve) => engine.stream('go').subscribe({ next: (e) => events.push(`${e.type}:${e.agentName}`), complete: () => resolve(events.at(-1)!) }));
    expect(result).toBe('RunEnd:main');
    const request = model.requests[0]!;
    expect(String(request.messages[0]?.content).startsWith(testAgentPrompt('lead'))).toBe(true);
    expect(request.tools?.map((t) => t.name).sort()).toEqual(['read', 'task']);
    expect(engine.agent('lead')).toBe(engine.agent());
  });

  it('instructions given in code win over the primary\'s prompt; its tools still apply', async () => {
    workspace = await makeWorkspace();
    home = await realpath(await mkdtemp(join(tmpdir(), 'rxharness-home-')));
    await workspace.file('.rxharness/agents/lead.md', `---\nname: lead\ndescription: Lead.\nmode: primary\ntools: [list]\n---\nYou are lead.\n`);
    const model = new ScriptedModel(() => ({ text: 'ok' }));
    const engine = new HarnessEngine({ model, workspace: workspace.dir, homeDir: home, instructions: 'You are the code-given main agent.' });
    await engine.call('go');
    expect(String(model.requests[0]!.messages[0]?.content).startsWith('You are the code-given main agent.')).toBe(true);
    expect(model.requests[0]!.tools?.map((t) => t.name)).toEqual(['list']);
  });
});
