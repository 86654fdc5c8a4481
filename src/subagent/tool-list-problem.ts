import picomatch from 'picomatch';
import { globCostProblem } from '../validation/glob-cost.js';

/** What a definition can name instead (a search's advice, to narrow with grep, would not fit). */
const TOOL_ADVICE = 'Name the tools, or use a prefix like "mcp__fs__*".';

/**
 * Why matching the `tools` entry `entry` could freeze the process, or `undefined` when it is
 * cheap (a plain name always is). A glob becomes a backtracking regex run on the main thread
 * against every tool name (MCP names run to 64 characters): `+([a-z_]|[a-z_][a-z_])x` takes
 * seconds against one, and each further character makes it slower. A definition holding
 * such an entry is refused (see `buildDefinition`); see `globCostProblem` for the limits.
 *
 * @example
 * ```ts
 * toolEntryProblem('mcp__fs__read_*'); // undefined
 * toolEntryProblem('*?*?*?x'); // 'entry "*?*?*?x" has too many wildcards: ...'
 * ```
 */
export function toolEntryProblem(entry: string): string | undefined {
  return picomatch.scan(entry).isGlob ? globCostProblem(entry, 'entry', TOOL_ADVICE) : undefined;
}

/**
 * The most entries one `tools` or `disallowedTools` list may hold. Each glob entry is matched
 * against each tool name whenever the agent starts: 20,000 entries (a 170 KB comma string)
 * stall the engine for seconds at every start, and no engine has a fraction as many tools.
 */
export const MAX_TOOL_ENTRIES = 256;

/**
 * Why a definition's `tools` or `disallowedTools` list cannot be used, or `undefined`: more
 * than {@link MAX_TOOL_ENTRIES} entries, or an entry {@link toolEntryProblem} refuses.
 *
 * @example
 * ```ts
 * toolListProblem(['read', 'mcp__fs__*']); // undefined
 * ```
 */
export function toolListProblem(entries: readonly string[]): string | undefined {
  if (entries.length > MAX_TOOL_ENTRIES) return `has ${entries.length} entries; at most ${MAX_TOOL_ENTRIES} (use a glob like "mcp__fs__*" for many tools)`;
  return entries.map(toolEntryProblem).find((problem) => problem !== undefined);
}
