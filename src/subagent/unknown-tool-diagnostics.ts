import { closest } from '../errors/did-you-mean.js';
import { quoted } from '../permission/quoted.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentDiagnostic } from './agent-diagnostic.js';
import { isKnownToolName } from './narrow-tools.js';

/** How MCP tools are named (`mcp__<server>__<tool>`): which servers exist depends on the configuration. */
const MCP_PREFIX = 'mcp__';

/**
 * One diagnostic per tool a definition names (in `tools` or `disallowedTools`) that is not
 * in `knownTools`, leaving out those {@link wideningToolProblem} refuses the definition for;
 * `*` always passes (aliases like `pi` were expanded when the definition was built), and so
 * do a glob matching a known tool and a name a known glob matches (an MCP server's tools are
 * known as `mcp__<server>__*` before it starts). A typo in `tools` can only narrow the agent,
 * so it is worth a warning, but not worth refusing the definition. A name that differs from a
 * known tool only in case (Claude Code's `Read`) gets a did-you-mean; it is not mapped, since
 * tool names are case-sensitive.
 */
export function unknownToolDiagnostics(definition: AgentDefinition, knownTools: readonly string[], disabledTools: readonly string[] = []): AgentDiagnostic[] {
  const widening = new Set(wideningNames(definition, knownTools, disabledTools));
  const named = [...(definition.tools ?? []), ...(definition.disallowedTools ?? [])];
  const unknown = [...new Set(named)].filter((tool) => !widening.has(tool) && !isKnownToolName(tool, knownTools));
  const file = definition.file ?? `agent "${definition.name}" (${definition.source})`;
  return unknown.map((tool) => {
    const sameLetters = knownTools.find((candidate) => candidate.toLowerCase() === tool.toLowerCase());
    const hint = sameLetters === undefined ? '' : ` did you mean ${quoted(sameLetters)}?`;
    return { file, reason: `unknown tool ${quoted(tool)};${hint} ${knownList(knownTools)}` };
  });
}

/**
 * Why the definition must not load, or `undefined`: its `disallowedTools` names a tool that
 * does not exist (Claude Code's `Bash` for our `bash`). Such a name matches nothing, so the
 * agent keeps every tool it was meant to lose: as wide as a misspelt `disallowedTools` key,
 * which is refused too (see `wideningTypo`). An MCP name (`mcp__github__create_issue`) no
 * configured server offers stays a warning unless it is close to a known one: its server is
 * simply not configured here, and a tool that is not there cannot reach the agent. Nor is a
 * name of `disabledTools` (tools the engine turned off) refused: it is a real tool's name.
 *
 * @example
 * ```ts
 * wideningToolProblem(defineAgent({ name: 'r', description: 'd', systemPrompt: 'p', disallowedTools: ['Bash'] }), ['bash']);
 * // 'disallowedTools names "Bash", which is no tool; did you mean "bash"? The definition is not loaded: ...'
 * ```
 */
export function wideningToolProblem(definition: AgentDefinition, knownTools: readonly string[], disabledTools: readonly string[] = []): string | undefined {
  const names = wideningNames(definition, knownTools, disabledTools);
  if (names.length === 0) return undefined;
  const what = definition.file === undefined ? 'definition' : 'file';
  const hint = (name: string): string | undefined => closest(name, knownTools);
  const named = names.length === 1
    ? `names ${quoted(names[0]!)}, which is no tool${hint(names[0]!) === undefined ? '.' : `; did you mean ${quoted(hint(names[0]!)!)}?`}`
    : `names ${names.map((name) => (hint(name) === undefined ? quoted(name) : `${quoted(name)} (did you mean ${quoted(hint(name)!)}?)`)).join(', ')}, which are no tools.`;
  return `disallowedTools ${named} The ${what} is not loaded: a name that matches no tool takes nothing away, so the agent would keep the tools it was meant to lose. ` +
    `Tool names are case-sensitive; ${knownList(knownTools)}`;
}

/** The `disallowedTools` entries that name no tool and would leave the agent wider than meant. */
function wideningNames(definition: AgentDefinition, knownTools: readonly string[], disabledTools: readonly string[]): string[] {
  const names = [...knownTools, ...disabledTools];
  const unknown = [...new Set(definition.disallowedTools ?? [])].filter((tool) => !isKnownToolName(tool, names));
  return unknown.filter((tool) => !tool.startsWith(MCP_PREFIX) || closest(tool, knownTools) !== undefined);
}

function knownList(knownTools: readonly string[]): string {
  return `known tools: ${knownTools.length > 0 ? [...knownTools].sort().join(', ') : '(none)'}`;
}
