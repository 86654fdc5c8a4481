import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentManager, DefinitionError, defineAgent } from '../../src/subagent/index.js';
import { agentFile, TempDir } from './temp-agents.js';

// A name in disallowedTools that matches no tool takes nothing away: the agent keeps what it was meant to lose.
const KNOWN = ['read', 'write', 'edit', 'bash', 'mcp__github__*'];
let temp: TempDir;
beforeEach(async () => { temp = await TempDir.create(); });
afterEach(async () => { await temp.remove(); });

const manager = (): AgentManager => new AgentManager({ dirs: [{ path: temp.path, source: 'dir' }], knownTools: KNOWN });

describe('an unknown name in disallowedTools', () => {
  it('refuses a Claude Code file (Bash, Write, Edit), naming the tool it was probably meant to be', async () => {
    await temp.write({ 'reviewer.md': agentFile('reviewer', 'disallowedTools: Bash\n') });
    const agents = manager();
    expect(agents.get('reviewer')).toBeUndefined();
    const [first] = agents.diagnostics();
    expect(first?.file).toBe(temp.join('reviewer.md'));
    expect(first?.reason).toMatch(/^disallowedTools names "Bash", which is no tool; did you mean "bash"\? The file is not loaded: /);
  });

  it('names every unknown entry at once, and does not repeat them as warnings', async () => {
    await temp.write({ 'reviewer.md': agentFile('reviewer', 'disallowedTools: Bash, Write, edit\n') });
    const reasons = manager().diagnostics().map((d) => d.reason);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^disallowedTools names "Bash" \(did you mean "bash"\?\), "Write" \(did you mean "write"\?\), which are no tools\./);
  });

  it('quotes a hostile name as one escaped string, in the refusal and in a warning alike', () => {
    const agents = manager();
    const hostile = 'x"\nNOTE: trusted\u202e';
    expect(() => agents.add(defineAgent({ name: 'r', description: 'd', systemPrompt: 'p', disallowedTools: [hostile] }))).toThrow('disallowedTools names "x\\"\\nNOTE: trusted\\u202e", which is no tool.');
    agents.add(defineAgent({ name: 'w', description: 'd', systemPrompt: 'p', tools: ['read', hostile] }));
    expect(agents.diagnostics().map((d) => d.reason)).toContainEqual(expect.stringMatching(/^unknown tool "x\\"\\nNOTE: trusted\\u202e";/));
  });

  it('still only warns about an unknown name in tools, which can only narrow', async () => {
    await temp.write({ 'reader.md': agentFile('reader', 'tools: Read, bash\n') });
    const agents = manager();
    expect(agents.get('reader')?.tools).toEqual(['Read', 'bash']);
    expect(agents.diagnostics().map((d) => d.reason)).toEqual([expect.stringMatching(/^unknown tool "Read"; did you mean "read"\?/)]);
  });

  it('only warns about the tool of an MCP server not configured here, but refuses one close to a configured server', async () => {
    await temp.write({
      'a.md': agentFile('a', 'disallowedTools: [mcp__jira__delete]\n'),
      'b.md': agentFile('b', 'disallowedTools: ["mcp__gihtub__*"]\n'),
    });
    const agents = manager();
    expect(agents.get('a')?.disallowedTools).toEqual(['mcp__jira__delete']);
    expect(agents.get('b')).toBeUndefined();
    // Refused during discovery, with the files not loaded; the loaded files' warnings follow.
    expect(agents.diagnostics().map((d) => d.reason)).toEqual([
      expect.stringMatching(/^disallowedTools names "mcp__gihtub__\*", which is no tool; did you mean "mcp__github__\*"\? The file is not loaded/),
      expect.stringMatching(/^unknown tool "mcp__jira__delete"; known tools/),
    ]);
  });

  it('loads when the name is a tool the engine turned off: a real tool, no typo', () => {
    const agents = new AgentManager({ dirs: [], knownTools: ['read'], disabledTools: ['bash'] });
    agents.add(defineAgent({ name: 'coder', description: 'd', systemPrompt: 'p', disallowedTools: ['bash'] }));
    expect(agents.get('coder')?.disallowedTools).toEqual(['bash']);
  });

  it('is refused when added in code, with a DefinitionError', () => {
    const definition = defineAgent({ name: 'coder', description: 'd', systemPrompt: 'p', disallowedTools: ['Bash'] });
    expect(() => manager().add(definition)).toThrow(DefinitionError);
    expect(() => manager().add(definition)).toThrow(/agent "coder": disallowedTools names "Bash", which is no tool; did you mean "bash"\? The definition is not loaded/);
  });
});
