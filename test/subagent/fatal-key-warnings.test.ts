import { afterEach, describe, expect, it } from 'vitest';
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { DefinitionError } from '../../src/subagent/definition-error.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { agentFile, TempDir } from './temp-agents.js';

// A file that is not loaded used to report only the problem that stopped it: its misspelt
// keys surfaced one fix later. Now all of a file's problems come together.
describe('a definition that is not loaded still reports its other warnings', () => {
  let dir: TempDir;
  afterEach(() => dir?.remove());

  it('lists the fatal widening typo first, then every other misspelt key of the file', async () => {
    dir = await TempDir.create();
    await dir.write({ 'skip.md': agentFile('skip', 'tool: read\nmaxStep: 3\nhiden: true\n') });
    const manager = new AgentManager({ dirs: [{ path: dir.path, source: 'dir' }] });
    expect(await manager.get('skip')).toBeUndefined();
    expect(await manager.diagnostics()).toEqual([
      { file: dir.join('skip.md'), reason: expect.stringMatching(/^unknown key "tool"; did you mean "tools"\?.*so it is not loaded$/) },
      { file: dir.join('skip.md'), reason: 'unknown key "maxStep" is ignored; did you mean "maxSteps"?' },
      { file: dir.join('skip.md'), reason: 'unknown key "hiden" is ignored; did you mean "hidden"?' },
    ]);
  });

  it('keeps the warnings next to a fatal value, not only next to a fatal key', async () => {
    dir = await TempDir.create();
    await dir.write({ 'bad.md': agentFile('bad', 'maxSteps: 0\ncolr: red\n') });
    const manager = new AgentManager({ dirs: [{ path: dir.path, source: 'dir' }] });
    expect(await manager.diagnostics()).toEqual([
      { file: dir.join('bad.md'), reason: '"maxSteps" must be a positive integer, got the number 0' },
      { file: dir.join('bad.md'), reason: 'unknown key "colr" is ignored; did you mean "color"?' },
    ]);
  });

  it('carries the warnings on the DefinitionError of a parse from code', () => {
    let error: unknown;
    try {
      parseAgentMarkdown(agentFile('x', 'tool: read\ndisalowedTools: [bash]\n'), { source: 'dir', file: '/x/x.md' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).reason).toMatch(/^unknown key "tool"/);
    expect((error as DefinitionError).warnings).toEqual(['unknown key "disalowedTools" is ignored; did you mean "disallowedTools"?']);
  });
});
