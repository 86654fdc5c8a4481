import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';
import { collect, own } from '../support/collect-events.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// `--workspace ~`: the workspace IS the user's home. Its `.rxharness/` is the user's own folder,
// read once as the user's, never as a cloned repository's (whose primary may only narrow).

const fresh = toolContextPerTest();

/** The home the engine is given: the workspace itself, a link to it, or a folder of its own. */
type Home = 'the workspace' | 'a link to the workspace' | 'a folder of its own';

async function homeOf(kind: Home): Promise<string> {
  if (kind === 'the workspace') return fresh.ws.dir;
  // ws.home is removed with the workspace: removing the link leaves its target alone.
  if (kind === 'a link to the workspace') await symlink(fresh.ws.dir, fresh.ws.home);
  return fresh.ws.home;
}

/** A `mode: primary` definition in the workspace's agents folder asking for `budget` tokens. */
async function plantPrimary(budget: number): Promise<void> {
  await mkdir(join(fresh.ws.dir, '.rxharness', 'agents'), { recursive: true });
  await writeFile(join(fresh.ws.dir, '.rxharness', 'agents', 'lead.md'), `---\nname: lead\ndescription: Leads.\nmode: primary\ntoken_budget: ${budget}\n---\nYou lead.\n`);
}

const answer = () => new ScriptedModel(() => ({ text: 'ok', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } }));

/** The scanned folders other than the built-ins and `agentDirs`, as `source: path`. */
const scanned = (dirs: readonly { path: string; source: string }[]) => dirs.filter((d) => d.source === 'workspace' || d.source === 'user').map((d) => `${d.source}: ${d.path}`);

describe.each<Home>(['the workspace', 'a link to the workspace'])('a home that is %s', (kind) => {
  it("has its agents and skills folders read once, as the user's", async () => {
    const home = await homeOf(kind);
    expect(scanned(standardAgentDirs({ workspace: fresh.ws.dir, home }))).toEqual([`user: ${join(home, '.rxharness', 'agents')}`]);
    expect(scanned(standardSkillDirs({ workspace: fresh.ws.dir, home }))).toEqual([`user: ${join(home, '.rxharness', 'skills')}`]);
  });

  it('has a primary definition there raise the engine budget, as a user file may', async () => {
    await plantPrimary(5_000);
    const engine = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: await homeOf(kind), tokenBudget: 1_000 });
    expect([engine.agents.primary()?.name, engine.agents.primary()?.source]).toEqual(['lead', 'user']);
    expect(own(await collect(engine.stream('go')), 'Budget').map((e) => e.limit)).toEqual([5_000]);
    await engine.close();
  });
});

describe('a home that is a folder of its own', () => {
  it("keeps the workspace's folders the workspace's, before the user's", async () => {
    const home = await homeOf('a folder of its own');
    expect(scanned(standardAgentDirs({ workspace: fresh.ws.dir, home }))).toEqual([
      `workspace: ${join(fresh.ws.dir, '.rxharness', 'agents')}`,
      `user: ${join(home, '.rxharness', 'agents')}`,
    ]);
    expect(scanned(standardSkillDirs({ workspace: fresh.ws.dir, home }))).toEqual([
      `workspace: ${join(fresh.ws.dir, '.rxharness', 'skills')}`,
      `user: ${join(home, '.rxharness', 'skills')}`,
    ]);
  });

  it("lets the workspace's primary definition only narrow the engine budget", async () => {
    await plantPrimary(5_000);
    const engine = new HarnessEngine({ model: answer(), workspace: fresh.ws.dir, homeDir: await homeOf('a folder of its own'), tokenBudget: 1_000 });
    expect([engine.agents.primary()?.name, engine.agents.primary()?.source]).toEqual(['lead', 'workspace']);
    expect(own(await collect(engine.stream('go')), 'Budget').map((e) => e.limit)).toEqual([1_000]);
    await engine.close();
  });
});
