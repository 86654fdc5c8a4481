import { describe, expect, it } from 'vitest';
import { AgentManager, standardAgentDirs } from '../../src/subagent/index.js';
import { agentFile, tempWorkspaceAndHome } from './temp-agents.js';

const TOOLS = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo', 'task', 'multitask', 'generate'];
const folders = tempWorkspaceAndHome();

function manager(): AgentManager {
  return new AgentManager({ dirs: standardAgentDirs({ workspace: folders.workspace.path, home: folders.home.path }), knownTools: TOOLS });
}

// Claude Code's spelling: names no tool of ours, so the file would keep `bash`; it is refused.
const WIDENING = 'disallowedTools: Bash\n';

describe('a refused definition file takes no name', () => {
  it.each([
    ['its disallowedTools names no tool', agentFile('x', WIDENING)],
    ['its widening key is misspelt', agentFile('x', 'disalowedTools: [bash]\n')],
    ['its front matter is invalid', '---\nname: x\ndescription: [unclosed\n---\nbody\n'],
  ])('when %s, the user\'s file of that name loads', async (_why, refused) => {
    await folders.workspace.write({ '.rxharness/agents/x.md': refused });
    await folders.home.write({ '.rxharness/agents/x.md': agentFile('x', '', 'You are the user\'s x.') });
    const agents = manager();
    expect(agents.get('x')?.systemPrompt).toBe('You are the user\'s x.');
    expect(agents.get('x')?.source).toBe('user');
    const reasons = agents.diagnostics().map((d) => d.reason).join('\n');
    expect(reasons).not.toMatch(/already defined/);
  });

  it('the refusal names the agent and says why, before the file\'s other warnings', async () => {
    await folders.workspace.write({ '.rxharness/agents/x.md': agentFile('x', `${WIDENING}tools: [read, nosuch]\n`) });
    const diagnostics = manager().diagnostics().filter((d) => d.file.endsWith('x.md'));
    expect(diagnostics[0]).toMatchObject({ agent: 'x', reason: expect.stringMatching(/^disallowedTools names "Bash".*not loaded/) });
    expect(diagnostics.slice(1).map((d) => d.reason)).toEqual([expect.stringMatching(/^unknown tool "nosuch"/)]);
  });

  it('a refused file with override: true leaves the built-in in place', async () => {
    await folders.workspace.write({ '.rxharness/agents/explore.md': agentFile('explore', `override: true\n${WIDENING}`) });
    const agents = manager();
    expect(agents.get('explore')?.source).toBe('builtin');
    const reasons = agents.diagnostics().filter((d) => d.file.endsWith('explore.md')).map((d) => d.reason);
    expect(reasons).toEqual([expect.stringMatching(/^disallowedTools names "Bash"/)]);
  });
});
