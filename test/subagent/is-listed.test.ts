/**
 * One predicate says which definitions are listed (in the `task`/`multitask` descriptions and
 * the main agent's prompt): what `AgentManager.list()` shows and what the workspace folder's
 * listing budget charges must be the same agents, or a hidden agent could eat the budget of
 * listed ones (or a listed one slip past it).
 */
import { basename } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { isListed } from '../../src/subagent/definition-role.js';
import { MAX_LISTING_CHARS } from '../../src/subagent/folder-budget.js';
import { MAX_AGENT_DESCRIPTION_CHARS } from '../../src/subagent/front-matter-schema.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { agentFile, TempDir } from './temp-agents.js';

let temp: TempDir | undefined;
afterEach(() => temp?.remove());

/** One definition of each kind: the front-matter lines that make it. */
const KINDS = { plain: '', both: 'mode: all\n', hidden: 'hidden: true\n', off: 'enabled: false\n', primary: 'mode: primary\n' } as const;

describe('isListed', () => {
  it('lists enabled, visible subagents (mode subagent or all) only', () => {
    const listed = Object.entries(KINDS).filter(([name, extra]) => isListed(parseAgentMarkdown(agentFile(name, extra), { source: 'workspace' })));
    expect(listed.map(([name]) => name)).toEqual(['plain', 'both']);
  });

  it('is what AgentManager.list() shows and what the listing budget charges', async () => {
    temp = await TempDir.create();
    // Five of each kind with a description near the longest: four listed ones fit the budget,
    // a fifth does not; were an unlisted one charged, listed ones would be left out sooner.
    const long = 'x'.repeat(MAX_AGENT_DESCRIPTION_CHARS - 100);
    expect(4 * (6 + long.length)).toBeLessThanOrEqual(MAX_LISTING_CHARS);
    expect(5 * (5 + long.length)).toBeGreaterThan(MAX_LISTING_CHARS);
    const files: Record<string, string> = {};
    for (const [kind, extra] of Object.entries(KINDS)) {
      for (let i = 0; i < 5; i++) files[`ws/.rxharness/agents/${kind}${i}.md`] = `---\nname: ${kind}${i}\ndescription: ${long}\n${extra}---\nYou are ${kind}.\n`;
    }
    await temp.write(files);
    const agents = new AgentManager({ dirs: standardAgentDirs({ workspace: temp.join('ws'), home: temp.join('home') }) });
    const ours = (list: readonly AgentDefinition[]): string[] => list.filter((a) => a.source === 'workspace').map((a) => a.name);
    // Files are read by name: both0..both3 fill the budget (hidden*, off* in between cost nothing).
    expect(ours(agents.list())).toEqual(['both0', 'both1', 'both2', 'both3']);
    expect(ours(agents.enabled())).toEqual(['both0', 'both1', 'both2', 'both3', 'hidden0', 'hidden1', 'hidden2', 'hidden3', 'hidden4']);
    const leftOut = agents.diagnostics().filter((d) => d.reason.startsWith('is left out'));
    expect(leftOut.map((d) => basename(d.file))).toEqual(['both4.md', 'plain0.md', 'plain1.md', 'plain2.md', 'plain3.md', 'plain4.md']);
  });
});
