import picomatch from 'picomatch';
import { isDelegationTool } from './delegation-tool-names.js';
import { FULL_TOOL_SET, inToolSet, PUBLIC_TOOL_SET } from './tool-aliases.js';
import { toolEntryProblem } from './tool-list-problem.js';

/** One agent's say in which tools its agent holds: a definition's lists, or the engine's. */
export interface ToolNarrowing {
  /**
   * The definition's `tools`: undefined or empty means all the parent has; `**` all of it
   * too, `*` all but its MCP tools (the public set), besides the other entries.
   */
  readonly tools?: readonly string[];
  /** The definition's `disallowedTools`: removed even when `tools` allows them. */
  readonly disallowedTools?: readonly string[];
  /** Tools the engine turned off for everyone. */
  readonly disabledTools?: readonly string[];
}

/** Inputs of {@link narrowTools}. */
export interface NarrowToolsInput extends ToolNarrowing {
  /** Every tool the parent holds. */
  readonly parentTools: readonly string[];
  /** False when the child sits at the depth limit: it gets no delegation tools. */
  readonly canDelegate: boolean;
}

/**
 * The tools a child may hold: the definition's tools ∩ the parent's, minus the disallowed and
 * the engine-disabled ones, minus `task` / `multitask` / `generate` at the depth limit. The
 * result is a subset of the parent's tools by construction, in the parent's order.
 *
 * `*` matches every tool but MCP tools (the public set), `**` every tool (the full set). An
 * entry with glob characters (`mcp__github__*`, `mcp__fs__read_*`) matches the parent's tool
 * names it fits (picomatch); any other entry matches exactly one name.
 *
 * @example
 * ```ts
 * narrowTools({ parentTools: ['read', 'bash', 'task'], tools: ['read', 'write'], canDelegate: false });
 * // ['read']
 * narrowTools({ parentTools: ['read', 'mcp__fs__read_file', 'mcp__gh__search'], tools: ['mcp__fs__*'], canDelegate: false });
 * // ['mcp__fs__read_file']
 * narrowTools({ parentTools: ['read', 'task', 'mcp__fs__read_file'], tools: ['*'], canDelegate: true });
 * // ['read', 'task']
 * ```
 */
export function narrowTools(input: NarrowToolsInput): string[] {
  const wanted = input.tools?.length ? input.tools : undefined;
  const removed = [...(input.disallowedTools ?? []), ...(input.disabledTools ?? [])];
  return input.parentTools.filter(
    (name) => (!wanted || matchesAny(wanted, name)) && !matchesAny(removed, name) && (input.canDelegate || !isDelegationTool(name)),
  );
}

/**
 * `names` narrowed by each step in turn (a chain of definitions from the top down): what an
 * agent holds of tools whose names are known only when its run starts.
 *
 * @example
 * ```ts
 * applyNarrowing([{ disabledTools: ['mcp__fs__write_file'] }, { tools: ['mcp__fs__*'] }], ['mcp__fs__read_file', 'mcp__fs__write_file', 'mcp__gh__x']);
 * // ['mcp__fs__read_file']
 * ```
 */
export function applyNarrowing(steps: readonly ToolNarrowing[], names: readonly string[]): string[] {
  return steps.reduce<string[]>((kept, step) => narrowTools({ parentTools: kept, ...step, canDelegate: true }), [...names]);
}

/**
 * Whether a chain of narrowing steps may keep some tool whose name starts with `prefix` (an
 * MCP server's `mcp__fs__`), judged from the lists alone, before the names are known. It errs
 * towards yes: false only when some step's `tools` cannot match such a name, or a removed
 * entry matches all of them (`mcp__fs__*`, `*`).
 *
 * @example
 * ```ts
 * mayKeepPrefix([{ tools: ['read', 'mcp__fs__*'] }], 'mcp__fs__'); // true
 * mayKeepPrefix([{ tools: ['read'] }], 'mcp__fs__'); // false
 * ```
 */
export function mayKeepPrefix(steps: readonly ToolNarrowing[], prefix: string): boolean {
  return steps.every((step) => {
    const wanted = step.tools?.length ? step.tools : undefined;
    if (wanted && !wanted.some((entry) => mayMatchPrefix(entry, prefix))) return false;
    const removed = [...(step.disallowedTools ?? []), ...(step.disabledTools ?? [])];
    return !removed.some((entry) => coversPrefix(entry, prefix));
  });
}

/**
 * Whether `name` is one of `known` (whose entries may be globs, like an MCP server's
 * `mcp__fs__*`), or is a glob matching one of them: a definition naming it names something.
 *
 * @example
 * ```ts
 * isKnownToolName('mcp__fs__read_file', ['read', 'mcp__fs__*']); // true
 * isKnownToolName('re*', ['read']); // true
 * isKnownToolName('fly', ['read']); // false
 * ```
 */
export function isKnownToolName(name: string, known: readonly string[]): boolean {
  // A glob too costly to match names nothing (and `generate` gets one from the model).
  if (toolEntryProblem(name) !== undefined) return false;
  return name === PUBLIC_TOOL_SET || name === FULL_TOOL_SET || known.some((entry) => matchesEntry(entry, name) || matchesEntry(name, entry));
}

/**
 * How many compiled entries {@link matchesEntry} keeps. A long-lived `serve` reads the
 * definitions of many workspaces over its life, each with its own globs: without a bound the
 * cache grows with every one. A few thousand hold every entry of any real set of definitions.
 */
export const MATCHER_CACHE_LIMIT = 2048;

// Least recently used first (a Map keeps insertion order; a hit moves its entry to the end).
const matchers = new Map<string, (name: string) => boolean>();

/** How many compiled entries are cached now (never more than {@link MATCHER_CACHE_LIMIT}); for tests. */
export function matcherCacheSize(): number {
  return matchers.size;
}

/**
 * Whether a `tools` entry (a name, a glob, or a set: `*`, `**`) matches the tool `name`.
 *
 * @throws Error for a glob {@link toolEntryProblem} refuses: matching nothing would lose a
 *   `disallowedTools` entry, matching it could take hours.
 */
function matchesEntry(entry: string, name: string): boolean {
  if (entry === name) return true;
  const set = inToolSet(entry, name);
  if (set !== undefined) return set;
  let matcher = matchers.get(entry);
  if (matcher) {
    matchers.delete(entry); // used now: the last to go
  } else {
    const problem = toolEntryProblem(entry);
    if (problem !== undefined) throw new Error(`tool list ${problem}`);
    // Only entries with glob characters are globs: a plain name never matches another name.
    matcher = picomatch.scan(entry).isGlob ? picomatch(entry, { dot: true }) : () => false;
    if (matchers.size >= MATCHER_CACHE_LIMIT) matchers.delete(matchers.keys().next().value as string);
  }
  matchers.set(entry, matcher);
  return matcher(name);
}

function matchesAny(entries: readonly string[], name: string): boolean {
  return entries.some((entry) => matchesEntry(entry, name));
}

/** The part of an entry before its first glob character (all of a plain name). */
function literalHead(entry: string): { head: string; glob: boolean } {
  const at = entry.search(/[*?[\]{}()!+@\\]/);
  return at < 0 ? { head: entry, glob: false } : { head: entry.slice(0, at), glob: true };
}

function mayMatchPrefix(entry: string, prefix: string): boolean {
  const set = inToolSet(entry, prefix);
  if (set !== undefined) return set;
  const { head, glob } = literalHead(entry);
  return head.startsWith(prefix) || (glob && prefix.startsWith(head));
}

function coversPrefix(entry: string, prefix: string): boolean {
  const set = inToolSet(entry, prefix);
  if (set !== undefined) return set;
  if (!entry.endsWith('*')) return false;
  const { head, glob } = literalHead(entry.slice(0, -1));
  return !glob && prefix.startsWith(head);
}
