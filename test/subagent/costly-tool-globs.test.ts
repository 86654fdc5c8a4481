import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/subagent/definition-error.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { isKnownToolName, narrowTools } from '../../src/subagent/narrow-tools.js';
import { MAX_TOOL_ENTRIES } from '../../src/subagent/tool-list-problem.js';

// A tools entry is a glob matched by a backtracking regex against every tool name, on the
// main thread: one from a cloned repository (or the model, through `generate`) must not
// freeze the engine. `+([a-z_]|[a-z_][a-z_])#` takes seconds against a 36-character MCP
// tool name, and twice as long for each two more characters.

const COSTLY = ['+([a-z_]|[a-z_][a-z_])#', '*?*?*?*?*?*?#', '@(mcp__fs__*|+([a-z_]|[a-z_][a-z_])#)'];
const withTools = (line: string): string => `---\nname: greedy\ndescription: Greedy.\n${line}\n---\nYou are greedy.\n`;
const file = (key: string, entry: string): string => withTools(`${key}: ["${entry}"]`);

describe('tool globs too costly to match', () => {
  it.each(COSTLY)('a definition file naming %s in tools or disallowed_tools is refused, naming the key as written', (entry) => {
    for (const key of ['tools', 'disallowed_tools']) {
      const parse = (): unknown => parseAgentMarkdown(file(key, entry), { source: 'workspace', file: '/ws/greedy.md' });
      expect(parse).toThrow(DefinitionError);
      expect(parse).toThrow(`"${key}" entry "${entry}"`);
    }
  });

  it('is refused by defineAgent too (what generate builds from the model\'s tools), and is no known tool name', () => {
    expect(() => defineAgent({ name: 'g', description: 'G.', systemPrompt: 'P.', tools: [COSTLY[2]!] })).toThrow(/"tools" entry .* repeats/);
    // generate checks its tools against the known names first: a costly glob names none.
    expect(isKnownToolName(COSTLY[2]!, ['read', 'mcp__fs__*'])).toBe(false);
  });

  it(`refuses a list of more than ${MAX_TOOL_ENTRIES} entries: each start would match every one against every tool`, () => {
    const many = Array.from({ length: MAX_TOOL_ENTRIES + 1 }, (_, i) => `m${i}*`).join(', ');
    expect(() => parseAgentMarkdown(withTools(`tools: "${many}"`), { source: 'workspace' })).toThrow(
      `"tools" has ${MAX_TOOL_ENTRIES + 1} entries; at most ${MAX_TOOL_ENTRIES}`,
    );
    const enough = Array.from({ length: MAX_TOOL_ENTRIES }, (_, i) => `m${i}*`).join(', ');
    expect(parseAgentMarkdown(withTools(`tools: "${enough}"`), { source: 'workspace' }).tools).toHaveLength(MAX_TOOL_ENTRIES);
  });

  it('narrowTools refuses one given in code rather than running it; the usual globs still match', () => {
    const parentTools = ['read', 'mcp__filesystem__read_multiple_files'];
    expect(() => narrowTools({ parentTools, disallowedTools: [COSTLY[0]!], canDelegate: false })).toThrow(/tool list entry .* repeats/);
    expect(narrowTools({ parentTools, tools: ['mcp__filesystem__read_*', 'mcp__{filesystem,gh}__*'], canDelegate: false })).toEqual([
      'mcp__filesystem__read_multiple_files',
    ]);
  });
});
